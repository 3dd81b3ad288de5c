/**
 * The address-space pages at size, on PostgreSQL (`node --import tsx bench/address-pages.ts
 * [--requests 40]`): a global 10.0.0.0/8 container holding 10,000 prefixes three levels deep
 * (16 /12 and 256 /16 containers, 9,728 /24s with a free /24 between each two), 100,000 addresses
 * (ten or eleven per /24, two free between each two) and 256 IP ranges, written as bulk SQL (as
 * seed-scale-sql.ts does: no change log, rows as the API would store them). Then, signed in as a
 * browser, each page `--requests` times one after the other (one connection: the latency is the
 * server's time, nothing queues): the /8's child prefixes and IP addresses tabs at the first, a
 * middle and the last page, its own page (the utilisation of 10,000 children), a /16's and a
 * /24's tabs. Reported: the first request's ms (it counts the rows; later ones find the
 * count in the lists' count cache, kept until a write), p50 and p95 ms, CPU ms per request of the
 * service and of PostgreSQL, and, from a second run of the service under trace-sql.ts on the same data, the SQL
 * statements of one request (which must not grow with the rows a page shows).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot } from './cpu-meter.js';
import { machine } from './report.js';
import { adminQuery, type Server, startServer } from './server.js';
import { SqlTrace } from './sql-trace.js';
import { SEED } from './seed-address-space.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
const REQUESTS = Number(argv[argv.indexOf('--requests') + 1] ?? 0) || 40;
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const PAGES: Array<[string, string]> = [
  ['/8 child prefixes, page 1', '/ipam/prefixes/1/prefixes/'],
  ['/8 child prefixes, page 100', '/ipam/prefixes/1/prefixes/?page=100'],
  ['/8 child prefixes, last page (200)', '/ipam/prefixes/1/prefixes/?page=200'],
  ['/8 child prefixes, 1,000 a page', '/ipam/prefixes/1/prefixes/?per_page=1000&page=5'],
  ['/8 IP addresses, page 1', '/ipam/prefixes/1/ip-addresses/'],
  ['/8 IP addresses, page 1,000', '/ipam/prefixes/1/ip-addresses/?page=1000'],
  ['/8 IP addresses, last page (2,006)', '/ipam/prefixes/1/ip-addresses/?page=2006'],
  ['/8 object page (utilisation)', '/ipam/prefixes/1/'],
  ['/16 child prefixes', '/ipam/prefixes/18/prefixes/'],
  ['/16 IP addresses', '/ipam/prefixes/18/ip-addresses/'],
  ['/24 IP addresses', '/ipam/prefixes/300/ip-addresses/'],
];

interface Row {
  page: string;
  first: number;
  p50: number;
  p95: number;
  serverCpu: number;
  pgCpu: number;
  statements?: number;
}

async function seeded(traceSqlFile?: string): Promise<Server> {
  const server = await startServer({ engine: 'postgres', pgUrl: PG, traceSqlFile });
  const url = new URL(PG);
  url.pathname = `/${server.database}`;
  for (const step of SEED) await adminQuery(url.toString(), step);
  await server.analyze();
  return server;
}

async function get(server: Server, path: string, cookie: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 300)}`);
  return ms;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const rows: Row[] = [];
let server = await seeded();
try {
  const cookie = await signIn(server.url, 'bench', 'bench-password');
  for (const [page, path] of PAGES) {
    // the first request counts what the page lists; the others find the count in the lists' cache
    const first = await get(server, path, cookie);
    for (let i = 0; i < 2; i++) await get(server, path, cookie);
    const before = await cpuSnapshot(server.pid, PG, server.database);
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await get(server, path, cookie));
    const after = await cpuSnapshot(server.pid, PG, server.database);
    let pg = 0;
    for (const [pid, v] of after.backends) pg += v - (before.backends.get(pid) ?? 0);
    times.sort((a, b) => a - b);
    rows.push({
      page,
      first,
      p50: pct(times, 50),
      p95: pct(times, 95),
      serverCpu: ((after.server ?? 0) - (before.server ?? 0)) / REQUESTS,
      pgCpu: pg / REQUESTS,
    });
  }
} finally {
  await server.stop();
}

// the statements, from the service run under trace-sql.ts on the same data
const traceFile = join(mkdtempSync(join(tmpdir(), 'inv-bench-')), 'sql');
server = await seeded(traceFile);
try {
  const trace = new SqlTrace(server, traceFile);
  const cookie = await signIn(server.url, 'bench', 'bench-password');
  for (const [i, [, path]] of PAGES.entries())
    rows[i]!.statements = await trace.statementsOfRequest(() => get(server, path, cookie));
} finally {
  await server.stop();
}

console.log(
  `\n10,000 child prefixes, 100,000 addresses, ${REQUESTS} requests per page one after the other; ${JSON.stringify(machine())}\n`,
);
console.log('| page | first ms | p50 ms | p95 ms | CPU ms/req Node + pg | SQL statements |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.page} | ${r.first.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.serverCpu.toFixed(1)} + ${r.pgCpu.toFixed(1)} | ${r.statements} |`,
  );
