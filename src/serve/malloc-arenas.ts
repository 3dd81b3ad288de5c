/**
 * How many malloc arenas the C library keeps for a serving process (glibc's MALLOC_ARENA_MAX).
 *
 * glibc gives each thread that allocates at once an arena of its own, up to eight per core, and
 * keeps what an arena grew to. V8's four platform threads compile (TurboFan's zones) and collect
 * through malloc: after the standard data set's bulk load each held an arena of 5.6-6.4 MB, 24 MB
 * resident in all, that the process kept for good. Measured (docs/performance.md, "Memory"): a
 * server that had taken the bulk load peaked at 190-195 MB under 16 connections of 1,000-prefix
 * pages, and at 174-178 MB with two arenas (resident after the load 162-163 -> 147-149 MB), with
 * req/s the same within the noise. The variable must be set before the process starts: `npm
 * start` sets it, and the cluster primary gives it to the workers it forks. A value the
 * environment already sets is kept.
 */
const MALLOC_ARENA_MAX = '2';

/** what a forked serving process adds to its environment */
export function servingProcessEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? MALLOC_ARENA_MAX };
}
