/**
 * The web interface's rack pages on PostgreSQL (`node --import tsx bench/rack-pages.ts [--duration 8]
 * [--racks 25] [--trace-sql]`): a 42U rack full of devices (1U, 2U and full-depth 4U ones, front
 * and rear, with three reservations) and `--racks` more racks half full, made through the REST API;
 * then, as a signed-in browser, the full rack's page (both faces drawn) and `/dcim/rack-elevations/`
 * showing the `--racks` racks (and, to compare, the rack's Reservations tab: the same head without
 * the drawings), each loaded one request at a time for `--duration` seconds after a
 * warm-up. Reported per page: requests, p50/p95/p99 ms, the service's and PostgreSQL's CPU ms per
 * request, the HTML's size; with `--trace-sql` (the service then runs through tsx: take latencies
 * from a run without it) the SQL statements of one request, and of the elevations of 5 racks
 * against `--racks`, which must be equal; with `--cpu-prof` a V8 profile of the service in
 * bench/results/prof-rack-pages/ (bench/profile-summary.ts). Target: the rack page's p95 under 30 ms.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { int, refuseUnknownFlags } from './args.js';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { describeSpeed, hostSpeed } from './host-speed.js';
import { call } from './http.js';
import { machine } from './report.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, ROOT, startServer, TOKEN } from './server.js';
import { SqlTrace } from './sql-trace.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
refuseUnknownFlags(argv, new Set(['--duration', '--racks', '--trace-sql', '--cpu-prof']), 'bench/rack-pages.ts');
const DURATION = int(argv, '--duration', 8);
const RACKS = int(argv, '--racks', 25);
const TRACE = argv.includes('--trace-sql');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WARMUP_MS = 2_000;

const traceFile = TRACE ? join(mkdtempSync(join(tmpdir(), 'inv-bench-')), 'sql') : undefined;
const speed = await hostSpeed(PG);
const cpuProfDir = argv.includes('--cpu-prof') ? join(ROOT, 'bench/results/prof-rack-pages') : undefined;
const server = await startServer({ engine: 'postgres', pgUrl: PG, traceSqlFile: traceFile, cpuProfDir });
const trace = traceFile ? new SqlTrace(server, traceFile) : null;
const api = (method: string, path: string, body?: unknown) =>
  // biome-ignore lint/suspicious/noExplicitAny: the bench walks API answers by field name; the tests check their shapes
  call<any>({ base: server.url, token: TOKEN }, method, path, body);

/** the nearest-rank percentile of sorted values */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** devices in lists of 100 */
async function mount(devices: unknown[]) {
  for (let i = 0; i < devices.length; i += 100) await api('POST', '/api/dcim/devices/', devices.slice(i, i + 100));
}

interface Row {
  page: string;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  serverCpuMs: number;
  pgCpuMs: number;
  kb: number;
  statements: number | null;
}

try {
  const n = (s: string) => `${s}-${process.pid}`;
  const manufacturer = await api('POST', '/api/dcim/manufacturers/', { name: n('m'), slug: n('m') });
  const type = (model: string, u_height: number, is_full_depth: boolean) =>
    api('POST', '/api/dcim/device-types/', {
      manufacturer: manufacturer.id,
      model: n(model),
      slug: n(model),
      u_height,
      is_full_depth,
    });
  const oneU = await type('1u', 1, false);
  const twoU = await type('2u', 2, false);
  const fourU = await type('4u', 4, true);
  const roles: Array<{ id: number }> = [];
  for (const [name, color] of [
    ['server', '2f6a31'],
    ['switch', '1a5fd0'],
    ['storage', 'ffe4a0'],
  ] as const)
    roles.push(await api('POST', '/api/dcim/device-roles/', { name: n(name), slug: n(name), color }));
  const site = await api('POST', '/api/dcim/sites/', { name: n('s'), slug: n('s') });
  const user = await api('POST', '/api/users/users/', { username: n('holder'), password: 'Bench-pass-1' });
  const rack = async (name: string) => api('POST', '/api/dcim/racks/', { name: n(name), site: site.id, u_height: 42 });
  const device = (r: { id: number }, name: string, t: { id: number }, position: number, face: string, i: number) => ({
    name: n(name),
    site: site.id,
    rack: r.id,
    device_type: t.id,
    device_role: roles[i % roles.length]!.id,
    position,
    face,
  });
  // the full rack: 4U full-depth at 1-16 (both faces), 2U front at 17-32, 1U front at 33-40,
  // 1U rear at 17-40, reservations at 41-42 and over two rear units
  const full = await rack('full');
  const devices: unknown[] = [];
  for (let p = 1; p <= 13; p += 4) devices.push(device(full, `full-4u-${p}`, fourU, p, 'front', p));
  for (let p = 17; p <= 31; p += 2) devices.push(device(full, `full-2u-${p}`, twoU, p, 'front', p));
  for (let p = 33; p <= 40; p += 1) devices.push(device(full, `full-1u-${p}`, oneU, p, 'front', p));
  for (let p = 17; p <= 40; p += 1) devices.push(device(full, `full-rear-${p}`, oneU, p, 'rear', p));
  await mount(devices);
  for (const units of [[41], [42], [20, 21]])
    await api('POST', '/api/dcim/rack-reservations/', { rack: full.id, units, user: user.id, description: 'held' });
  // the elevations' racks: each half full, in a site of their own so a filter selects them
  const rowSite = await api('POST', '/api/dcim/sites/', { name: n('row'), slug: n('row') });
  const rowDevices: unknown[] = [];
  for (let r = 0; r < RACKS; r += 1) {
    const rk = await api('POST', '/api/dcim/racks/', {
      name: n(`row-${String(r).padStart(3, '0')}`),
      site: rowSite.id,
      u_height: 42,
    });
    for (let p = 1; p <= 20; p += 1)
      rowDevices.push({ ...device(rk, `row-${r}-${p}`, oneU, p, p % 2 ? 'front' : 'rear', p), site: rowSite.id });
  }
  await mount(rowDevices);
  await server.analyze();
  const cookie = await signIn(server.url, ADMIN_USERNAME, ADMIN_PASSWORD);
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie, Accept: 'text/html' } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 300)}`);
    return body;
  };
  /** statements of one request, when tracing */
  const statementsOf = async (path: string) => {
    if (!trace) return null;
    await trace.dump();
    await get(path);
    const dump = await trace.dump();
    return dump ? dump.statements.reduce((k, s) => k + s.calls, 0) : null;
  };
  const elevations = (perPage: number, extra = '') =>
    `/dcim/rack-elevations/?site_id=${rowSite.id}&per_page=${perPage}${extra}`;
  const pages: Array<[string, string]> = [
    [`racks/<id>/ (42U full, ${devices.length} devices, 3 reservations)`, `/dcim/racks/${full.id}/`],
    [`rack-elevations/ (${RACKS} racks, ${rowDevices.length} devices)`, elevations(RACKS <= 25 ? 25 : 50)],
    [`rack-elevations/?face=rear (${RACKS} racks)`, elevations(RACKS <= 25 ? 25 : 50, '&face=rear')],
    // for comparison: the same rack's page head and tabs without the drawings
    ['racks/<id>/reservations/ (the same head, no drawing)', `/dcim/racks/${full.id}/reservations/`],
  ];
  const rows: Row[] = [];
  for (const [page, path] of pages) {
    const html = await get(path);
    const statements = await statementsOf(path);
    const warmEnd = performance.now() + WARMUP_MS;
    while (performance.now() < warmEnd) await get(path);
    const before = await cpuSnapshot(server.pid, PG, server.database);
    const latencies: number[] = [];
    const end = performance.now() + DURATION * 1000;
    while (performance.now() < end) {
      const t0 = performance.now();
      await get(path);
      latencies.push(performance.now() - t0);
    }
    const after = await cpuSnapshot(server.pid, PG, server.database);
    const cpu = cpuPerRequest(before, after, latencies.length, server.database);
    latencies.sort((a, b) => a - b);
    rows.push({
      page,
      requests: latencies.length,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      serverCpuMs: cpu.serverMs ?? 0,
      pgCpuMs: cpu.postgresMs ?? 0,
      kb: Buffer.byteLength(html) / 1000,
      statements,
    });
  }
  const few = await statementsOf(`/dcim/rack-elevations/?site_id=${rowSite.id}&per_page=25&q=row-00`);
  console.log(
    `\n${JSON.stringify(machine())}; ${describeSpeed(speed)}; ${DURATION} s per page, one request at a time\n`,
  );
  console.log('| page | requests | p50 ms | p95 ms | p99 ms | CPU ms/req Node + pg | HTML KB | SQL statements |');
  console.log('|---|---|---|---|---|---|---|---|');
  const f = (x: number) => x.toFixed(1);
  for (const r of rows)
    console.log(
      `| ${r.page} | ${r.requests.toLocaleString('en')} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.serverCpuMs.toFixed(2)} + ${r.pgCpuMs.toFixed(2)} | ${f(r.kb)} | ${r.statements ?? ''} |`,
    );
  if (trace) console.log(`\nrack-elevations/ of up to 10 racks (q=row-00): ${few} statements`);
  const rackPage = rows[0]!;
  console.log(`\nrack page p95 ${f(rackPage.p95)} ms: target < 30 ms ${rackPage.p95 < 30 ? 'met' : 'MISSED'}`);
} finally {
  await server.stop();
}
