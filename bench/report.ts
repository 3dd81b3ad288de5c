/**
 * Output of a run: the results table on stdout (with the targets and the caveat that the load
 * generator shares the machine's cores with the server) and one JSON file per engine under
 * bench/results/ (git-ignored), so runs can be compared over time.
 */
import { NETBOX_BULK_OBJECTS_PER_SEC, NETBOX_REQ_PER_SEC } from './scenarios-standard.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { describeSpeed, type HostSpeed } from './host-speed.js';
import type { ScenarioResult } from './scenarios.js';
import type { SeedStep } from './seed.js';
import type { PageProbeResult } from './sql-trace.js';
import { ROOT } from './server.js';

/** the project's PostgreSQL targets on the 2-core reference machine (bench/README.md, sites data set) */
export const TARGETS: Record<string, { metric: 'req/s' | 'objects/s'; min: number }> = {
  list: { metric: 'req/s', min: 1500 },
  detail: { metric: 'req/s', min: 3000 },
  'bulk-create': { metric: 'objects/s', min: 10_000 },
};

export interface EngineReport {
  engine: string;
  date: string;
  /** loadAvg1: the 1-minute load average when the engine's run started (other work on the machine skews figures) */
  machine: { cpus: number; model: string; node: string; loadAvg1: number; speed?: HostSpeed };
  /** --dataset, and what it seeded in words */
  dataset: string;
  summary: string;
  durationSec: number;
  /** the server's response cache (RESPONSE_CACHE_MB): on, or off with --no-response-cache */
  responseCache: boolean;
  /** the server's /metrics hooks (METRICS_ENABLED): on, or off with --no-metrics */
  metrics: boolean;
  /** server processes on one port (serve --workers N); absent in reports made before it existed */
  workers?: number;
  /** the API dialect the server answered in (--dialect); absent in reports made before it existed: 3.4 */
  dialect?: string;
  seed: SeedStep[];
  scenarios: ScenarioResult[];
  /** --trace-sql: SQL statements of one list request at limit=50 and limit=1000 */
  pageProbes?: PageProbeResult[];
  /** peak resident memory of each server process over the whole run (cpu-meter.ts peakMemory) */
  memory?: Array<{ pid: number; what: string; peakMb: number }>;
  note: string;
}

export const NOTE =
  'autocannon runs in the benchmark process on the same machine and shares its cores with the server (and PostgreSQL); figures are lower than on a dedicated load generator.';

export function machine() {
  const c = cpus();
  return {
    cpus: c.length,
    model: c[0]?.model ?? 'unknown',
    node: process.version,
    loadAvg1: Math.round(loadavg()[0]! * 100) / 100,
  };
}

function verdict(engine: string, r: ScenarioResult): string {
  const t = TARGETS[r.name];
  if (!t) return '';
  const v = t.metric === 'objects/s' ? (r.objectsPerSec ?? 0) : r.reqPerSecMean;
  const ok = v >= t.min;
  const label = `${ok ? 'meets' : 'BELOW'} ${t.min.toLocaleString('en')} ${t.metric}`;
  return engine === 'postgres' ? label : `(pg target ${t.min.toLocaleString('en')})`;
}

export function table(rep: EngineReport): string {
  const head = [
    'scenario',
    'conns',
    'req/s mean',
    'p50 ms',
    'p99 ms',
    'objects/s',
    'CPU ms/req node',
    'CPU ms/req pg',
    'CPU ms/req autocannon',
    'errors (timeouts)',
    'non-2xx',
    'target',
  ];
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '' : v.toFixed(2));
  const rows = rep.scenarios.map((r) => [
    r.title,
    String(r.connections),
    r.reqPerSecMean.toFixed(1),
    r.latencyP50Ms.toFixed(1),
    r.latencyP99Ms.toFixed(1),
    r.objectsPerSec === undefined ? '' : Math.round(r.objectsPerSec).toLocaleString('en'),
    ms(r.cpu?.serverMs),
    ms(r.cpu?.postgresMs),
    ms(r.cpu?.loadGeneratorMs),
    `${r.errors} (${r.timeouts})`,
    String(r.non2xx),
    verdict(rep.engine, r),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join(' | ');
  const seed = rep.seed.map((s) => `${s.what} ${Math.round(s.objectsPerSec)}/s`).join(', ');
  return [
    `== ${rep.engine}, ${rep.dataset} data set (${rep.summary}), ${rep.durationSec} s per scenario, ${rep.machine.cpus} cores (${rep.machine.model}), node ${rep.machine.node}, load average ${rep.machine.loadAvg1} at start, response cache ${rep.responseCache ? 'on' : 'off'}, metrics ${rep.metrics ? 'on' : 'off'}, ${rep.workers ?? 1} server process${(rep.workers ?? 1) > 1 ? 'es' : ''}, API dialect ${rep.dialect ?? '3.4'}`,
    line(head),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map(line),
    `seeding throughput (${seedHow(rep.dataset)}): ${seed}`,
    ...netboxLines(rep),
    ...sqlLines(rep),
    ...(rep.machine.speed ? [describeSpeed(rep.machine.speed)] : []),
    ...(rep.memory?.length
      ? [
          `peak resident memory over the run: ${rep.memory.map((m) => `${m.peakMb} MB (pid ${m.pid}, ${m.what})`).join('; ')}`,
        ]
      : []),
    `note: ${rep.note}`,
  ].join('\n');
}

function seedHow(dataset: string): string {
  if (dataset === 'scale') return 'bulk SQL, one insert ... select per table, rows/s';
  return `bulk POST${dataset === 'standard' ? ', lists of 100, 2 clients' : ', 1,000/request'}`;
}

/** the standard data set: each scenario's figure against NetBox 3.7.8's reference figure (docs/performance.md) */
function netboxLines(rep: EngineReport): string[] {
  if (rep.dataset !== 'standard') return [];
  const ratios = rep.scenarios
    .filter((r) => NETBOX_REQ_PER_SEC[r.name] !== undefined)
    .map((r) => `${r.name} ${(r.reqPerSecMean / NETBOX_REQ_PER_SEC[r.name]!).toFixed(1)}x`);
  const bulk = rep.seed.find((s) => s.what === 'bulk load, all steps');
  if (bulk) ratios.push(`bulk load ${(bulk.objectsPerSec / NETBOX_BULK_OBJECTS_PER_SEC).toFixed(1)}x`);
  return [`against NetBox 3.7.8 (reference req/s; target 50x): ${ratios.join(', ')}`];
}

/** --trace-sql: statements per request of each scenario, and per list request by page size */
function sqlLines(rep: EngineReport): string[] {
  const lines: string[] = [];
  for (const r of rep.scenarios) {
    if (r.sql) lines.push(`sql statements/request under load, ${r.name}: ${r.sql.statementsPerRequest.toFixed(2)}`);
  }
  for (const p of rep.pageProbes ?? []) {
    const counts = Object.entries(p.perRequest)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `sql statements of one list request, ${p.name}: ${counts}${p.constant ? ' (constant)' : ' (CHANGES with the page size)'}`,
    );
  }
  return lines;
}

export function writeJson(rep: EngineReport): string {
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${rep.engine}-${rep.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(rep, null, 2)}\n`);
  return file;
}

/** Scenarios with failed requests; the run must not pass quietly with them. */
export function failures(rep: EngineReport): string[] {
  return rep.scenarios
    .filter((r) => r.errors + r.non2xx > 0 || r.requests === 0)
    .map(
      (r) =>
        `${rep.engine}/${r.name}: ${r.requests} requests, ${r.errors} errors (${r.timeouts} of them timeouts), ${r.non2xx} non-2xx`,
    );
}
