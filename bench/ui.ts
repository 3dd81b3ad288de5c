/**
 * The UI benchmark (`npm run bench:ui -- [flags]`, bench/README.md): the server-rendered pages of
 * src/web/model-pages/ as a signed-in browser asks for them, on PostgreSQL with a table of 100,000
 * rows. The service is started by server.ts on a fresh database, the standard data set's shape is
 * written in bulk SQL at the size that gives 100,000 IP addresses (seed-scale.ts; `--dataset
 * scale`: 1,000,000), the superuser signs in through the /login/ form, and each page is loaded by
 * autocannon with the session cookie for --duration seconds after a warm-up: a 50-row list of the
 * addresses (plain, filtered, sorted, page 1000), an address's and a device's page, a device's
 * edit form and the dashboard. Per page: req/s, p50/p95/p99, CPU ms per request of the service
 * and of PostgreSQL, the HTML's bytes and gzipped bytes, and with --trace-sql the SQL statements
 * per page (and of one list page at 25, 50 and 1,000 rows). Then the first visit's stylesheets
 * and scripts: bytes, gzipped bytes, Cache-Control. A markdown table on stdout, JSON in
 * bench/results/. Any failed or non-2xx answer fails the run (exit 1); a missed target is
 * reported, not failed (a busy host misses latency targets).
 *
 *   --duration S      seconds per page (default 8), after min(2, S) s of warm-up
 *   --connections N   autocannon connections (default 1: latency is server time, nothing queues)
 *   --workers N       server processes (serve --workers N; default 1)
 *   --dataset ui|scale  ui (default): 100,000 addresses, 5,000 devices; scale: 1,000,000, 50,000
 *   --small           a tenth of the data set (a smoke run of the harness)
 *   --only a,b        only these pages (names below)
 *   --trace-sql       count the service's SQL (bench/trace-sql.ts; the service then runs through tsx)
 *   --pg-url URL      admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdirSync } from 'node:fs';
import autocannon from 'autocannon';
import { int, refuseUnknownFlags, value } from './args.js';
import { cpuPerRequest, cpuSnapshot, peakMemory } from './cpu-meter.js';
import { describeSpeed, hostSpeed } from './host-speed.js';
import { machine } from './report.js';
import { settle } from './scenarios.js';
import { SCALE_FULL, SCALE_SMALL, seedScale } from './seed-scale.js';
import { scaleCounts } from './seed-scale-sql.js';
import type { StandardSizes } from './seed-standard.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, ROOT, type Server, startServer, TOKEN } from './server.js';
import { SqlTrace } from './sql-trace.js';
import { signIn, weigh, weighAssets } from './ui-pages.js';
import {
  type PageKind,
  type SqlProbe,
  UI_NOTE,
  type UiReport,
  type UiResult,
  uiTable,
  writeUiJson,
} from './ui-report.js';

const FLAGS = new Set([
  '--duration',
  '--connections',
  '--workers',
  '--dataset',
  '--small',
  '--only',
  '--trace-sql',
  '--pg-url',
]);

const argv = process.argv.slice(2);
refuseUnknownFlags(argv, FLAGS, 'bench/ui.ts');
const dataset = value(argv, '--dataset') ?? 'ui';
if (dataset !== 'ui' && dataset !== 'scale') throw new Error(`--dataset must be ui or scale, got "${dataset}"`);
const small = argv.includes('--small');
const args = {
  duration: int(argv, '--duration', 8),
  connections: int(argv, '--connections', 1),
  workers: int(argv, '--workers', 1),
  only:
    value(argv, '--only')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? null,
  traceSql: argv.includes('--trace-sql'),
  pgUrl: value(argv, '--pg-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres',
};
const WARMUP_SEC = Math.min(2, args.duration);
// the trace is read from the process started, which with several workers serves no request
if (args.traceSql && args.workers > 1) throw new Error('--trace-sql counts one server process: use --workers 1');

/**
 * ui: the standard shape with 100,000 addresses (seed-scale.ts's tenth: 5,000 devices, 50,000
 * interfaces, 10,000 prefixes); --small: 10,000 addresses on 1,000 devices. scale: 1,000,000
 * addresses (--small: the ui size).
 */
const UI_SMALL: StandardSizes = { ...SCALE_SMALL, regions: 5, vlanGroups: 500, slash16s: 40 };
const SIZES: Record<'ui' | 'scale', [full: StandardSizes, small: StandardSizes]> = {
  ui: [SCALE_SMALL, UI_SMALL],
  scale: [SCALE_FULL, SCALE_SMALL],
};
const size = SIZES[dataset][small ? 1 : 0];

interface UiScenario {
  name: string;
  title: string;
  kind: PageKind;
  /** the path of the next request (a walk over ids, or always the same) */
  path(): string;
  /** the page weighed and traced: the walk's first */
  sample: string;
}

/** a walk over 1..n (or a list of ids) with a stride coprime with the count: each is hit evenly */
function walk(ids: number[]): () => number {
  let next = -1;
  const stride = 7919 % ids.length || 1;
  return () => ids[(next = (next + stride) % ids.length)]!;
}

function scenarios(addresses: number, deviceIds: number[]): UiScenario[] {
  const ipIds = Array.from({ length: addresses }, (_, i) => i + 1);
  const fixed = (name: string, title: string, kind: PageKind, path: string): UiScenario => ({
    name,
    title,
    kind,
    path: () => path,
    sample: path,
  });
  const walking = (name: string, title: string, kind: PageKind, ids: number[], path: (id: number) => string) => {
    const next = walk(ids);
    return { name, title, kind, path: () => path(next()), sample: path(walk(ids)()) };
  };
  // page 1000 of 50 rows needs 50,000 rows; the --small set's last full page otherwise
  const lastPage = Math.min(1000, Math.floor(addresses / 50));
  const list = '/ipam/ip-addresses/?per_page=50';
  return [
    fixed('list', 'ip-addresses/?per_page=50', 'list', list),
    fixed('list-filter', '…&parent=10.1.0.0/16', 'list', `${list}&parent=${encodeURIComponent('10.1.0.0/16')}`),
    fixed('list-sort', '…&sort=-dns_name', 'list', `${list}&sort=-dns_name`),
    fixed('list-page', `…&page=${lastPage}`, 'list', `${list}&page=${lastPage}`),
    walking('ip-object', 'ip-addresses/<id>/', 'object', ipIds, (id) => `/ipam/ip-addresses/${id}/`),
    walking('device-object', 'devices/<id>/', 'object', deviceIds, (id) => `/dcim/devices/${id}/`),
    walking('device-edit', 'devices/<id>/edit/', 'form', deviceIds, (id) => `/dcim/devices/${id}/edit/`),
    fixed('dashboard', '/ (dashboard)', 'dashboard', '/'),
  ];
}

/** the nearest-rank percentile of sorted values */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** One autocannon run of a page with the session cookie; every 2xx latency kept for exact percentiles. */
async function load(server: Server, s: UiScenario, cookie: string, seconds: number) {
  const latencies: number[] = [];
  const run = autocannon({
    url: server.url,
    connections: args.connections,
    duration: seconds,
    timeout: 60,
    pipelining: 1,
    headers: { Cookie: cookie, Accept: 'text/html' },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: s.path() }) }],
  });
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const r = await run;
  latencies.sort((a, b) => a - b);
  return { r, latencies };
}

const running = new Set<Server>();
const log = (s: string) => console.log(s);
const budgetSec = 900 + 8 * (args.duration + WARMUP_SEC + 60) + 300;
const watchdog = setTimeout(() => {
  console.error(`\n!! UI benchmark exceeded its ${budgetSec} s budget; stopping`);
  void Promise.allSettled([...running].map((s) => s.stop())).then(() => process.exit(2));
}, budgetSec * 1000);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => void Promise.allSettled([...running].map((s) => s.stop())).then(() => process.exit(130)));
}

async function main(): Promise<number> {
  const date = new Date().toISOString();
  const host = { ...machine(), speed: await hostSpeed(args.pgUrl) };
  log(
    `inventory UI benchmark: ${dataset} data set${small ? ' (--small)' : ''}, ${args.duration} s per page, ${args.connections} connection(s), all traffic to 127.0.0.1`,
  );
  log(`   ${describeSpeed(host.speed)}`);
  if (host.loadAvg1 > 1)
    log(
      `!! load average ${host.loadAvg1} on ${host.cpus} cores before starting: other processes compete with the benchmark`,
    );
  const traceBase = args.traceSql ? `${ROOT}/bench/results/sql-ui-${date.replace(/[:.]/g, '-')}` : undefined;
  if (traceBase) mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  const t0 = performance.now();
  const server = await startServer({
    engine: 'postgres',
    pgUrl: args.pgUrl,
    traceSqlFile: traceBase,
    env: { WORKERS: String(args.workers) },
  });
  running.add(server);
  try {
    log(`   ${server.url} answered after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const api = { base: server.url, token: TOKEN };
    const dbUrl = new URL(args.pgUrl);
    dbUrl.pathname = `/${server.database}`;
    log(`   seeding the standard shape in bulk SQL, ${scaleCounts(size).addresses.toLocaleString('en')} IP addresses`);
    const seeded = await seedScale(api, dbUrl.toString(), size, log);
    if (await server.analyze()) log('   VACUUM ANALYZE and CHECKPOINT after seeding');

    const cookie = await signIn(server.url, ADMIN_USERNAME, ADMIN_PASSWORD);
    log(`   signed in as ${ADMIN_USERNAME} through /login/ (sessionid cookie)`);
    const all = scenarios(scaleCounts(size).addresses, seeded.deviceIds);
    const unknown = args.only?.filter((n) => !all.some((s) => s.name === n)) ?? [];
    if (unknown.length)
      throw new Error(`--only: no page ${unknown.join(', ')}; pages: ${all.map((s) => s.name).join(', ')}`);
    const chosen = all.filter((s) => !args.only || args.only.includes(s.name));

    const home = await weigh(server.url, '/', cookie);
    const assets = await weighAssets(server.url, home.text, cookie);
    const trace = traceBase ? new SqlTrace(server, traceBase) : null;
    let sqlProbes: SqlProbe[] | undefined;
    if (trace) {
      sqlProbes = [];
      for (const [name, base] of [
        ['ip-addresses list', '/ipam/ip-addresses/'],
        ['devices list', '/dcim/devices/'],
      ] as const) {
        const perPage: Record<string, number> = {};
        for (const n of [25, 50, 1000])
          perPage[`per_page=${n}`] = await trace.statementsOfRequest(() =>
            weigh(server.url, `${base}?per_page=${n}`, cookie),
          );
        const counts = Object.values(perPage);
        sqlProbes.push({ name, perPage, constant: counts.every((c) => c === counts[0]) });
        log(
          `     sql per page, ${name}: ${Object.entries(perPage)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
      }
    }

    const results: UiResult[] = [];
    for (const s of chosen) {
      const page = await weigh(server.url, s.sample, cookie);
      if (!page.contentType.startsWith('text/html'))
        throw new Error(`${s.sample} answered ${page.contentType}, not HTML`);
      await load(server, s, cookie, WARMUP_SEC); // not measured: V8 optimises, PostgreSQL warms its caches
      await settle(server.url, TOKEN);
      if (trace) await trace.dump(); // the warm-up's statements
      log(`   ${s.name} (${s.title}) for ${args.duration} s`);
      const cpu0 = await cpuSnapshot(server.pid, args.pgUrl, server.database);
      const { r, latencies } = await load(server, s, cookie, args.duration);
      await settle(server.url, TOKEN);
      const cpu = cpuPerRequest(
        cpu0,
        await cpuSnapshot(server.pid, args.pgUrl, server.database),
        r.requests.total,
        server.database,
      );
      const res: UiResult = {
        name: s.name,
        title: s.title,
        kind: s.kind,
        connections: args.connections,
        durationSec: r.duration,
        requests: r.requests.total,
        reqPerSecMean: r.requests.average,
        latencyP50Ms: percentile(latencies, 50),
        latencyP90Ms: percentile(latencies, 90),
        latencyP95Ms: percentile(latencies, 95),
        latencyP975Ms: percentile(latencies, 97.5),
        latencyP99Ms: percentile(latencies, 99),
        latencyMeanMs: r.latency.average,
        errors: r.errors,
        timeouts: r.timeouts,
        non2xx: r.non2xx,
        cpu,
        page: {
          path: page.path,
          bytes: page.bytes,
          gzipBytes: page.gzipBytes,
          contentEncoding: page.contentEncoding,
          cacheControl: page.cacheControl,
        },
      };
      if (trace) await trace.underLoad(res, log);
      results.push(res);
    }

    const rep: UiReport = {
      date,
      machine: host,
      dataset: `${dataset}${small ? ' (--small)' : ''}`,
      summary: seeded.summary,
      durationSec: args.duration,
      warmupSec: WARMUP_SEC,
      connections: args.connections,
      workers: args.workers,
      traceSql: args.traceSql,
      seed: seeded.steps,
      scenarios: results,
      assets,
      sqlProbes,
      memory: peakMemory(server.pid),
      note: UI_NOTE,
    };
    log(`\n${uiTable(rep)}`);
    log(`   JSON: ${writeUiJson(rep)}`);
    const failed = results.filter((r) => r.errors + r.non2xx > 0 || r.requests === 0);
    for (const r of failed)
      console.error(
        `!! ${r.name}: ${r.requests} requests, ${r.errors} errors (${r.timeouts} timeouts), ${r.non2xx} non-2xx`,
      );
    return failed.length ? 1 : 0;
  } finally {
    running.delete(server);
    await server.stop();
  }
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((e) => {
    console.error(`\n!! UI benchmark aborted: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
