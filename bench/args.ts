/**
 * Command-line flags of the benchmark, parsed once into a frozen object. Kept separate so run.ts
 * reads as the sequence of steps it performs.
 *
 *   --dataset sites|ipam|standard   data set and scenarios (default sites; ipam: seed-ipam.ts;
 *                                   standard: issue 15's, seed-standard.ts)
 *   --engine postgres|pglite|both   engines to measure (default both)
 *   --duration S                    seconds per autocannon run (default 10)
 *   --pglite-duration S             seconds per run on PGlite (default: --duration)
 *   --sites N                       sites to seed (default 10000, at least 10000 unless --small)
 *   --small                         smoke run of the harness: any --sites, a tenth of the IPAM or standard data set
 *   --connections N                 connections for the read scenarios (default 16)
 *   --bulk-connections N            connections for bulk create (default 4)
 *   --only a,b                      run only these scenarios (names from scenarios.ts)
 *   --cpu-prof                      run the server with node --cpu-prof (profiles in bench/results/prof)
 *   --trace-sql                     preload bench/trace-sql.ts in the server: count and time SQL
 *   --no-response-cache             run the server with RESPONSE_CACHE_MB=0: every read is rendered
 *   --no-metrics                    run the server with METRICS_ENABLED=false (what the /metrics hooks cost)
 *   --workers N                     server processes on one port (serve --workers N; default 1, the
 *                                   figures before issue 15's "every core"; PGlite always runs one)
 *   --pg-url URL                    admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
export interface BenchArgs {
  dataset: 'sites' | 'ipam' | 'standard';
  small: boolean;
  engines: Array<'postgres' | 'pglite'>;
  duration: number;
  pgliteDuration: number;
  sites: number;
  connections: number;
  bulkConnections: number;
  only: string[] | null;
  cpuProf: boolean;
  traceSql: boolean;
  /** false: the server renders every read (RESPONSE_CACHE_MB=0), measuring the engine itself */
  responseCache: boolean;
  /** false: the server runs with METRICS_ENABLED=false (no /metrics, no hooks) */
  metrics: boolean;
  /** WORKERS for the server: processes sharing its port (PostgreSQL only) */
  workers: number;
  pgUrl: string;
}

function value(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

function int(argv: string[], name: string, dflt: number, min = 1): number {
  const v = value(argv, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${v}"`);
  return n;
}

export function parseArgs(argv: string[]): BenchArgs {
  const engine = value(argv, '--engine') ?? 'both';
  if (!['postgres', 'pglite', 'both'].includes(engine)) throw new Error('--engine must be postgres, pglite or both');
  const duration = int(argv, '--duration', 10);
  const dataset = value(argv, '--dataset') ?? 'sites';
  if (dataset !== 'sites' && dataset !== 'ipam' && dataset !== 'standard') throw new Error('--dataset must be sites, ipam or standard');
  const small = argv.includes('--small'); // quick smoke runs of the harness itself
  return Object.freeze({
    dataset,
    small,
    engines: (engine === 'both' ? ['postgres', 'pglite'] : [engine]) as BenchArgs['engines'],
    duration,
    pgliteDuration: int(argv, '--pglite-duration', duration),
    sites: int(argv, '--sites', 10_000, small ? 1 : 10_000),
    connections: int(argv, '--connections', 16),
    bulkConnections: int(argv, '--bulk-connections', 4),
    only: value(argv, '--only')?.split(',').map((s) => s.trim()).filter(Boolean) ?? null,
    cpuProf: argv.includes('--cpu-prof'),
    traceSql: argv.includes('--trace-sql'),
    responseCache: !argv.includes('--no-response-cache'),
    metrics: !argv.includes('--no-metrics'),
    workers: int(argv, '--workers', 1),
    pgUrl: value(argv, '--pg-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
}
