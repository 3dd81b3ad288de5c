/**
 * Command-line flags of the benchmark, parsed once into a frozen object. Kept separate so run.ts
 * reads as the sequence of steps it performs.
 *
 *   --dataset sites|ipam|standard|scale  data set and scenarios (default sites; ipam: seed-ipam.ts;
 *                                   standard: the set NetBox 3.7.8 was measured on, seed-standard.ts;
 *                                   scale: 50x standard in bulk SQL, seed-scale.ts, PostgreSQL only);
 *                                   a comma list runs each in turn
 *                                   internet: 10,000,000 addresses in a prefix hierarchy, seed-internet.ts)
 *   --keep-db                       keep the PostgreSQL database after the run (its name is printed)
 *   --cache on|off|both             the response cache per run (default on; --no-response-cache = off);
 *                                   both: each data set with it off, then on
 *   --standard-set                  the standard table in one run: the standard data set with the
 *                                   cache off and on, then scale with it off, on PostgreSQL; one report
 *   --engine postgres|pglite|both   engines to measure (default both; postgres with scale or --standard-set)
 *   --duration S                    seconds per autocannon run (default 10)
 *   --pglite-duration S             seconds per run on PGlite (default: --duration)
 *   --sites N                       sites to seed (default 10000, at least 10000 unless --small)
 *   --small                         smoke run of the harness: any --sites, a tenth of the IPAM or standard data set
 *   --connections N                 connections for the read scenarios (default 16)
 *   --bulk-connections N            connections for bulk create (default 4)
 *   --only a,b                      run only these scenarios (names from scenarios.ts)
 *   --cpu-prof                      run the server with node --cpu-prof (profiles in bench/results/prof)
 *   --trace-sql                     preload bench/trace-sql.ts in the server: count and time SQL
 *   --no-response-cache             run the server with RESPONSE_CACHE_MB=0: every read is rendered (--cache off)
 *   --no-metrics                    run the server with METRICS_ENABLED=false (what the /metrics hooks cost)
 *   --workers N                     server processes on one port (serve --workers N; default: one per
 *                                   core, as `npm start` runs on PostgreSQL; --workers 1 for the figures
 *                                   measured before; PGlite always runs one)
 *   --no-analyze                    no VACUUM ANALYZE after seeding: measure the database as a load through
 *                                   the API leaves it (what a user benchmarking right after loading gets)
 *   --dialect 3.4|4.4               the API dialect the server answers in (API_DIALECT; default 3.4):
 *                                   the same scenarios read NetBox 3.4's or 4.4's shapes
 *   --pg-url URL                    admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { availableParallelism } from 'node:os';

export type Dataset = 'sites' | 'ipam' | 'standard' | 'scale' | 'internet';
const DATASETS: Dataset[] = ['sites', 'ipam', 'standard', 'scale', 'internet'];
/** seeded in PostgreSQL's SQL */
const SQL_DATASETS: Dataset[] = ['scale', 'internet'];

/** one measured run: a data set seeded into a fresh database, the server's response cache on or off */
export interface BenchRun {
  dataset: Dataset;
  responseCache: boolean;
}

export interface BenchArgs {
  /** the first run's data set */
  dataset: Dataset;
  /** every run, in order (several with a comma list of data sets, --cache both or --standard-set) */
  runs: BenchRun[];
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
  /** the first run's: false renders every read (RESPONSE_CACHE_MB=0), measuring the engine itself */
  responseCache: boolean;
  /** false: the server runs with METRICS_ENABLED=false (no /metrics, no hooks) */
  metrics: boolean;
  /** WORKERS for the server: processes sharing its port (PostgreSQL only) */
  workers: number;
  /** VACUUM ANALYZE after seeding (PostgreSQL), as autovacuum would leave the tables a minute later */
  analyze: boolean;
  /** API_DIALECT of the server: the shapes every scenario reads */
  dialect: '3.4' | '4.4';
  pgUrl: string;
  /** leave the PostgreSQL databases in place after the run */
  keepDb: boolean;
}

/** the value of `--name V` or `--name=V` (shared with ui.ts) */
export function value(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

export function int(argv: string[], name: string, dflt: number, min = 1): number {
  const v = value(argv, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${v}"`);
  return n;
}

/** --standard-set, or each data set of --dataset with each setting of --cache */
function parseRuns(argv: string[]): BenchRun[] {
  if (argv.includes('--standard-set')) {
    return [
      { dataset: 'standard', responseCache: false },
      { dataset: 'standard', responseCache: true },
      { dataset: 'scale', responseCache: false },
    ];
  }
  const datasets = (value(argv, '--dataset') ?? 'sites').split(',').map((d) => d.trim());
  const bad = datasets.find((d) => !DATASETS.includes(d as Dataset));
  if (bad !== undefined)
    throw new Error(`--dataset must be ${DATASETS.join(', ')} or a comma list of them, got "${bad}"`);
  const cache = value(argv, '--cache') ?? (argv.includes('--no-response-cache') ? 'off' : 'on');
  if (!['on', 'off', 'both'].includes(cache)) throw new Error('--cache must be on, off or both');
  const settings = cache === 'both' ? [false, true] : [cache === 'on'];
  return datasets.flatMap((dataset) =>
    settings.map((responseCache) => ({ dataset: dataset as Dataset, responseCache })),
  );
}

/** every flag above: anything else is refused, so a renamed or mistyped flag never runs the default */
const FLAGS = new Set([
  '--dataset',
  '--cache',
  '--standard-set',
  '--engine',
  '--duration',
  '--pglite-duration',
  '--sites',
  '--small',
  '--connections',
  '--bulk-connections',
  '--only',
  '--cpu-prof',
  '--trace-sql',
  '--no-response-cache',
  '--no-metrics',
  '--workers',
  '--no-analyze',
  '--dialect',
  '--pg-url',
  '--keep-db',
]);

/** `flags`, `where`: another script's own set (ui.ts) and where its flags are listed */
export function refuseUnknownFlags(argv: string[], flags: Set<string> = FLAGS, where = 'bench/args.ts'): void {
  for (const arg of argv) {
    if (!arg.startsWith('--')) continue;
    const name = arg.split('=')[0]!;
    if (!flags.has(name)) throw new Error(`unknown flag ${name}; the flags are listed in ${where} and bench/README.md`);
  }
}

function parseDialectFlag(v: string | undefined): '3.4' | '4.4' {
  if (v === undefined || v === '3.4' || v === '4.4') return v ?? '3.4';
  throw new Error(`--dialect must be 3.4 or 4.4, got "${v}"`);
}

export function parseArgs(argv: string[]): BenchArgs {
  refuseUnknownFlags(argv);
  const runs = parseRuns(argv);
  const needsPostgres = runs.some((r) => SQL_DATASETS.includes(r.dataset));
  const engine = value(argv, '--engine') ?? (needsPostgres ? 'postgres' : 'both');
  if (!['postgres', 'pglite', 'both'].includes(engine)) throw new Error('--engine must be postgres, pglite or both');
  if (needsPostgres && engine !== 'postgres')
    throw new Error('the scale and internet data sets are seeded in PostgreSQL SQL: use --engine postgres');
  const duration = int(argv, '--duration', 10);
  const small = argv.includes('--small'); // quick smoke runs of the harness itself
  return Object.freeze({
    dataset: runs[0]!.dataset,
    runs,
    small,
    engines: (engine === 'both' ? ['postgres', 'pglite'] : [engine]) as BenchArgs['engines'],
    duration,
    pgliteDuration: int(argv, '--pglite-duration', duration),
    sites: int(argv, '--sites', 10_000, small ? 1 : 10_000),
    connections: int(argv, '--connections', 16),
    bulkConnections: int(argv, '--bulk-connections', 4),
    only:
      value(argv, '--only')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? null,
    cpuProf: argv.includes('--cpu-prof'),
    traceSql: argv.includes('--trace-sql'),
    responseCache: runs[0]!.responseCache,
    metrics: !argv.includes('--no-metrics'),
    // what a user's default start runs (config.ts WORKERS=auto), so the table measures that
    workers: int(argv, '--workers', availableParallelism()),
    analyze: !argv.includes('--no-analyze'),
    dialect: parseDialectFlag(value(argv, '--dialect')),
    pgUrl: value(argv, '--pg-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    keepDb: argv.includes('--keep-db'),
  });
}
