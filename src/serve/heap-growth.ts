/**
 * How far V8 lets the old generation grow past what survived its last full collection before it
 * collects again. Left to itself V8 picks a factor of up to 4 from its own timings, and a JSON API
 * under load promotes the objects of requests in flight (rows, rendered pages) that die soon after:
 * under 16 connections of 1,000-prefix pages, with 25-60 MB live, the old generation reached
 * 120-135 MB and the process 236-253 MB resident at the peak. Doubling at most keeps that peak at
 * 169-172 MB (an API process is meant to stay under 200 MB), and the CPU per request did not move
 * beyond the noise of three interleaved pairs (docs/performance.md, "Memory"). V8 reads this factor
 * at every full collection, so setting it at start applies it; a flag given on the command line
 * wins.
 */
import v8 from 'node:v8';

const HEAP_GROWING_PERCENT = 100;

export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => /^--heap[-_]growing[-_]percent\b/.test(a));
  if (given) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
