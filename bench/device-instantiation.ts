/**
 * Component instantiation benchmark, on PostgreSQL
 * (`node --import tsx bench/device-instantiation.ts [--devices 1000] [--batch 100]`):
 * a device type with 48 interface templates and 2 power port templates, then `--devices` devices
 * of it created through POST /api/dcim/devices/ in lists of `--batch`, one request at a time.
 * Every device gets 50 components, each with its change record, so 1,000 devices write 51,000
 * objects. Reports objects/s (devices and components), the server's and PostgreSQL's CPU ms per
 * request, and SQL statements per request (the server runs with trace-sql.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? dflt) || dflt;
const DEVICES = opt('devices', 1_000);
const BATCH = opt('batch', 100);
const INTERFACES = 48;
const POWER_PORTS = 2;
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const traceFile = join(mkdtempSync(join(tmpdir(), 'inv-bench-')), 'sql');
const server = await startServer({ engine: 'postgres', pgUrl: PG, traceSqlFile: traceFile });
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${(await res.text()).slice(0, 500)}`);
  // biome-ignore lint/suspicious/noExplicitAny: the bench walks API answers by field name; the tests check their shapes
  return res.json() as Promise<any>;
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** trace-sql.ts dumps what it saw since the last signal; the n-th dump's statements and requests */
let dumps = 0;
async function sqlWindow(): Promise<{ requests: number; statements: number }> {
  process.kill(server.pid, 'SIGUSR2');
  const file = `${traceFile}.${dumps++}.json`;
  for (let i = 0; i < 100; i++) {
    try {
      const d = JSON.parse(readFileSync(file, 'utf8')) as { requests: number; statements: Array<{ calls: number }> };
      return { requests: d.requests, statements: d.statements.reduce((n, s) => n + s.calls, 0) };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`no SQL trace in ${file}`);
}

try {
  const tag = `bench-${process.pid}`;
  const mfr = await call('POST', '/api/dcim/manufacturers/', { name: tag, slug: tag });
  const type = await call('POST', '/api/dcim/device-types/', { manufacturer: mfr.id, model: tag, slug: tag });
  await call(
    'POST',
    '/api/dcim/interface-templates/',
    Array.from({ length: INTERFACES }, (_, i) => ({
      device_type: type.id,
      name: `et-0/0/${i}`,
      type: '10gbase-x-sfpp',
    })),
  );
  await call(
    'POST',
    '/api/dcim/power-port-templates/',
    Array.from({ length: POWER_PORTS }, (_, i) => ({
      device_type: type.id,
      name: `PSU${i}`,
      type: 'iec-60320-c14',
      maximum_draw: 500,
    })),
  );
  const site = await call('POST', '/api/dcim/sites/', { name: tag, slug: tag });
  const role = await call('POST', '/api/dcim/device-roles/', { name: tag, slug: tag });
  const devices = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      name: `${tag}-${from + i}`,
      device_type: type.id,
      site: site.id,
      device_role: role.id,
    }));
  // warm-up: one list, not counted
  await call('POST', '/api/dcim/devices/', devices(-BATCH, BATCH));
  const count = async (path: string) =>
    (
      await fetch(`${server.url}${path}?site_id=${site.id}&limit=1`, {
        headers: { Authorization: `Token ${TOKEN}` },
      }).then((r) => (r.ok ? r.json() : { count: 0 }))
    ).count as number;
  const perDevice = ((await count('/api/dcim/interfaces/')) + (await count('/api/dcim/power-ports/'))) / BATCH;

  await sqlWindow();
  const before = await cpuSnapshot(server.pid, PG, server.database);
  const times: number[] = [];
  const t0 = performance.now();
  for (let sent = 0; sent < DEVICES; sent += BATCH) {
    const t = performance.now();
    await call('POST', '/api/dcim/devices/', devices(sent, Math.min(BATCH, DEVICES - sent)));
    times.push(performance.now() - t);
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = await cpuSnapshot(server.pid, PG, server.database);
  const trace = await sqlWindow();
  const requests = times.length;
  const cpu = cpuPerRequest(before, after, requests, server.database);
  const objects = DEVICES * (1 + perDevice);

  console.log(`# device instantiation, PostgreSQL, ${new Date().toISOString()}`);
  console.log(
    `${DEVICES} devices of a type with ${INTERFACES} interface + ${POWER_PORTS} power port templates, lists of ${BATCH}`,
  );
  console.log(`  components per device (warm-up list): ${perDevice}`);
  console.log(
    `  ${seconds.toFixed(2)} s: ${(objects / seconds).toFixed(0)} objects/s (${(DEVICES / seconds).toFixed(0)} devices/s)`,
  );
  console.log(
    `  per request: median ${pct(times, 0.5).toFixed(0)} ms, p95 ${pct(times, 0.95).toFixed(0)} ms; server CPU ${cpu.serverMs?.toFixed(1)} ms, PostgreSQL CPU ${cpu.postgresMs?.toFixed(1)} ms`,
  );
  console.log(
    `  SQL statements per request: ${(trace.statements / Math.max(1, trace.requests)).toFixed(1)} (${trace.statements} over ${trace.requests} requests)`,
  );
} finally {
  await server.stop();
}
