/**
 * Profiling aid: summarises a V8 .cpuprofile written by the server under `--cpu-prof` (run.ts
 * passes it through) into self time per function and per file (node_modules grouped by package),
 * so "where does the server's CPU go" has a concrete answer with file and function names.
 *
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile | dir> [--top 30] [--last S]
 *
 * --last S keeps only the final S seconds of the profile (the last scenario of a run, not seeding).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function where(url: string): string {
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return `pkg:${m[1]}`;
  const s = url.match(/\/(src|bench)\/.*$/);
  if (s) return s[0].slice(1);
  return url ? url.replace(/^node:/, 'node:') : '(native/vm)';
}

function summarise(file: string, top: number, lastSec: number | null) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const at: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) at.push((t += d));
  const from = lastSec === null ? -Infinity : p.endTime - lastSec * 1e6;
  p.samples.forEach((id, i) => {
    if (at[i]! >= from) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const f = where(n.callFrame.url);
    const name = `${n.callFrame.functionName || '(anonymous)'}  ${f}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    files.set(f, (files.get(f) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  console.log('-- self time by file/package');
  for (const [k, v] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
  console.log('-- self time by function');
  for (const [k, v] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
}

const argv = process.argv.slice(2);
const top = argv.includes('--top') ? Number(argv[argv.indexOf('--top') + 1]) : 30;
const last = argv.includes('--last') ? Number(argv[argv.indexOf('--last') + 1]) : null;
const target = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--top' && argv[i - 1] !== '--last');
if (!target) {
  console.error('usage: bench/profile-summary.ts <file.cpuprofile | dir> [--top N]');
  process.exit(1);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];
for (const f of files) summarise(f, top, last);
