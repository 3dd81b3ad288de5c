/**
 * Interfaces with their connected endpoints: `interfaces/?limit=1000` over cabled
 * interfaces, the page an LLDP or cabling audit reads. Before stored cable paths the far end was
 * found from the cable's terminations on every read; with them it is read from dcim_cablepath.
 *
 *   node --import tsx bench/cable-paths.ts [--engine postgres|pglite] [--devices N] [--rounds N] [--pg-url URL]
 *
 * A fresh database and server (bench/server.ts, RESPONSE_CACHE_MB=0 so every page is rendered),
 * seeded through bulk POSTs: N devices (default 250) with 48 interfaces each, cabled pairwise
 * (interface n of device 2k to interface n of device 2k+1), so every interface has a connected
 * endpoint. Then R rounds (default 20) of one page of 1,000 at a random offset. Reported: wall time
 * (median, p95) and server and PostgreSQL CPU ms per page (cpu-meter.ts), and the page's shape is
 * checked (every interface names its peer). Results: bench/results/cable-paths-*.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { type Api, call } from './http.js';
import { ROOT, startServer, TOKEN } from './server.js';

// biome-ignore lint/suspicious/noExplicitAny: the bench walks API answers by field name; the tests check their shapes
type Json = Record<string, any>;

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
const engine = flag('--engine', 'postgres') as 'postgres' | 'pglite';
const deviceCount = Number(flag('--devices', '250')) & ~1;
const rounds = Number(flag('--rounds', '20'));
const pgUrl = flag('--pg-url', 'postgres://postgres@127.0.0.1:5432/postgres');
const PER_DEVICE = 48;
const LIST = 100;

const chunks = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

async function seed(api: Api): Promise<number> {
  // biome-ignore lint/suspicious/noExplicitAny: an object or a list of them, as the body was one or a list
  const post = (path: string, body: unknown) => call<any>(api, 'POST', path, body);
  const site = await post('/api/dcim/sites/', { name: 'bench-site', slug: 'bench-site' });
  const mfr = await post('/api/dcim/manufacturers/', { name: 'bench-mfr', slug: 'bench-mfr' });
  const type = await post('/api/dcim/device-types/', { manufacturer: mfr.id, model: 'bench-48', slug: 'bench-48' });
  const role = await post('/api/dcim/device-roles/', { name: 'bench-role', slug: 'bench-role' });
  const devices: Json[] = [];
  for (const batch of chunks(
    Array.from({ length: deviceCount }, (_, i) => i),
    LIST,
  )) {
    devices.push(
      ...(await post(
        '/api/dcim/devices/',
        batch.map((i) => ({ name: `sw${i}`, site: site.id, device_type: type.id, role: role.id })),
      )),
    );
  }
  // the device type has no templates here, so the bench runs the same on code from before them
  const wanted = devices.flatMap((d) =>
    Array.from({ length: PER_DEVICE }, (_, n) => ({ device: d.id, name: `ge-0/0/${n}`, type: '1000base-t' })),
  );
  const interfaces: Json[] = [];
  for (const batch of chunks(wanted, 1000)) interfaces.push(...(await post('/api/dcim/interfaces/', batch)));
  const byDevice = new Map<number, Json[]>();
  for (const i of interfaces) byDevice.set(i.device.id, [...(byDevice.get(i.device.id) ?? []), i]);
  const cables: Json[] = [];
  for (let k = 0; k < devices.length; k += 2) {
    const [a, b] = [byDevice.get(devices[k]!.id)!, byDevice.get(devices[k + 1]!.id)!];
    for (let n = 0; n < PER_DEVICE; n++) {
      cables.push({
        a_terminations: [{ object_type: 'dcim.interface', object_id: a[n]!.id }],
        b_terminations: [{ object_type: 'dcim.interface', object_id: b[n]!.id }],
      });
    }
  }
  for (const batch of chunks(cables, LIST)) await post('/api/dcim/cables/', batch);
  return interfaces.length;
}

const server = await startServer({ engine, pgUrl, env: { RESPONSE_CACHE_MB: '0' } });
try {
  const api: Api = { base: server.url, token: TOKEN };
  const t0 = performance.now();
  const total = await seed(api);
  console.log(
    `${engine}: ${deviceCount} devices, ${total} interfaces, ${total / 2} cables seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  await server.analyze();
  const page = (offset: number) => call<Json>(api, 'GET', `/api/dcim/interfaces/?limit=1000&offset=${offset}`);
  const first = await page(0);
  const peerless = first.results.filter(
    (i: Json) => !Array.isArray(i.connected_endpoints) || i.connected_endpoints.length !== 1,
  );
  if (first.results.length !== 1000 || peerless.length)
    throw new Error(`a page of 1,000 cabled interfaces was expected; ${peerless.length} without a peer`);
  const offsets = Array.from({ length: rounds }, () => Math.floor(Math.random() * (total - 1000)));
  const walls: number[] = [];
  const before = await cpuSnapshot(server.pid, pgUrl, server.database);
  for (const offset of offsets) {
    const s = performance.now();
    await page(offset);
    walls.push(performance.now() - s);
  }
  const cpu = cpuPerRequest(before, await cpuSnapshot(server.pid, pgUrl, server.database), rounds, server.database);
  const result = {
    engine,
    devices: deviceCount,
    interfaces: total,
    rounds,
    wallMsMedian: Math.round(median(walls)),
    wallMsP95: Math.round(p95(walls)),
    serverCpuMs: cpu.serverMs === null ? null : Math.round(cpu.serverMs),
    postgresCpuMs: cpu.postgresMs === null ? null : Math.round(cpu.postgresMs),
  };
  console.log('interfaces/?limit=1000, every interface cabled: per page');
  console.log(
    `wall ms median ${result.wallMsMedian} (p95 ${result.wallMsP95}), server CPU ms ${result.serverCpuMs}, PostgreSQL CPU ms ${result.postgresCpuMs ?? '-'}`,
  );
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(
    ROOT,
    `bench/results/cable-paths-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`,
  );
  writeFileSync(file, JSON.stringify(result, null, 2));
  console.log(`written ${file}`);
} finally {
  await server.stop();
}
