/**
 * A site's topology drawing at size, on PostgreSQL (`node --import tsx bench/topology-page.ts
 * [--devices 500] [--cables 5000] [--rounds 20]`): a site of `--devices` devices in racks of 40,
 * 30 interfaces each, and `--cables` cables between interfaces of different devices (made through
 * the REST API in lists of 1,000), a third of them inside a rack. As a signed-in browser fetches
 * `/dcim/sites/<id>/topology/` one request at a time: p50/p95, the service's and PostgreSQL's CPU
 * ms per request, the SQL statements of one request and the HTML's size. Target: under 500 ms.
 */
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { machine } from './report.js';
import { deviceBasics, PG, startTracedServer } from './traced-server.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? 0) || fallback;
const DEVICES = arg('devices', 500);
const CABLES = arg('cables', 5000);
const ROUNDS = arg('rounds', 20);
/** interfaces per device: room to spare, so the pairing below always finds free ones */
const PER_DEVICE = 30;
const { server, api, statements } = await startTracedServer();
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const inLists = async (path: string, items: unknown[]) => {
  const out: Array<{ id: number }> = [];
  for (let i = 0; i < items.length; i += 1000) out.push(...(await api('POST', path, items.slice(i, i + 1000))));
  return out;
};

try {
  if (DEVICES * PER_DEVICE < CABLES * 3)
    throw new Error(`${DEVICES} devices have too few interfaces for ${CABLES} cables`);
  const n = (s: string) => `${s}-${process.pid}`;
  const { type, site } = await deviceBasics(api);
  const roles = await inLists(
    '/api/dcim/device-roles/',
    ['spine', 'leaf', 'server', 'storage'].map((r, i) => ({
      name: n(r),
      slug: n(r),
      color: ['e91e63', '3f51b5', '4caf50', 'ff9800'][i],
    })),
  );
  const racks = await inLists(
    '/api/dcim/racks/',
    Array.from({ length: Math.ceil(DEVICES / 40) }, (_, i) => ({
      name: `R${String(i + 1).padStart(2, '0')}`,
      site: site.id,
    })),
  );
  const devices = await inLists(
    '/api/dcim/devices/',
    Array.from({ length: DEVICES }, (_, i) => ({
      name: `${n('d')}-${i}`,
      device_type: type.id,
      role: roles[i % roles.length]!.id,
      site: site.id,
      rack: racks[Math.floor(i / 40)]!.id,
      position: (i % 40) + 1,
      face: 'front',
    })),
  );
  const ifaces = await inLists(
    '/api/dcim/interfaces/',
    devices.flatMap((d) =>
      Array.from({ length: PER_DEVICE }, (_, k) => ({ device: d.id, name: `eth${k}`, type: '10gbase-x-sfpp' })),
    ),
  );
  // cable c joins a free interface of device a to one of device b: a third within a rack of 40, the rest anywhere
  const next = new Array<number>(DEVICES).fill(0);
  const take = (d: number) => ifaces[d * PER_DEVICE + next[d]!++]!.id;
  const end = (id: number) => [{ object_type: 'dcim.interface', object_id: id }];
  const cables = [];
  for (let c = 0; cables.length < CABLES; c++) {
    if (c > CABLES * 20) throw new Error(`only ${cables.length} of ${CABLES} cables found free ends`);
    const a = c % DEVICES;
    const b = c % 3 === 0 ? Math.floor(a / 40) * 40 + ((a + 1 + (c % 7)) % 40) : (a * 7 + 13 + c) % DEVICES;
    if (a === b || b >= DEVICES || next[a]! >= PER_DEVICE || next[b]! >= PER_DEVICE) continue;
    cables.push({ a_terminations: end(take(a)), b_terminations: end(take(b)), color: c % 5 === 0 ? 'ffc107' : '' });
  }
  await inLists('/api/dcim/cables/', cables);
  await server.analyze();
  const cookie = await signIn(server.url, 'bench', 'bench-password');
  const path = `/dcim/sites/${site.id}/topology/`;
  let bytes = 0;
  const get = async () => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('topology-svg'))
      throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
    bytes = text.length;
  };
  const t0 = performance.now();
  await get();
  const first = performance.now() - t0;
  for (let i = 0; i < 2; i++) await get();
  await statements();
  await get();
  const perRequest = await statements();
  const ms: number[] = [];
  const before = await cpuSnapshot(server.pid, PG, server.database);
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await get();
    ms.push(performance.now() - t);
  }
  const cpu = cpuPerRequest(before, await cpuSnapshot(server.pid, PG, server.database), ROUNDS, server.database);
  console.log(
    `\n${DEVICES} devices, ${CABLES} cables, ${ROUNDS} requests one at a time; ${JSON.stringify(machine())}\n`,
  );
  console.log('| page | first ms | p50 ms | p95 ms | CPU ms/request Node + pg | SQL statements | HTML KB |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| site topology | ${first.toFixed(0)} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} | ${(cpu.serverMs ?? 0).toFixed(1)} + ${(cpu.postgresMs ?? 0).toFixed(1)} | ${perRequest} | ${(bytes / 1024).toFixed(0)} |`,
  );
} finally {
  await server.stop();
}
