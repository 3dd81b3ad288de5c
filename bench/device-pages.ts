/**
 * A device's pages at size, on PostgreSQL (`node --import tsx bench/device-pages.ts [--interfaces 500]
 * [--rounds 60]`): one device with `--interfaces` interfaces, half of them cabled to a peer's and a
 * fifth with an IP address; a path of 6 cables through 5 patch panels. As a signed-in browser
 * fetches them, one at a time, `--rounds` times each: the device page, its interface tab's first
 * and tenth page of 50, the connect form from a row, and the 6-hop trace. Reported per page: wall
 * time p50 and p95 (loopback, so the server's time and a little), the service's and PostgreSQL's
 * CPU ms per request, and the SQL statements of one request (the server runs under trace-sql.ts),
 * which must not grow with the rows shown.
 */
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { machine } from './report.js';
import { deviceBasics, PG, startTracedServer } from './traced-server.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? 0) || fallback;
const IFACES = arg('interfaces', 500);
const ROUNDS = arg('rounds', 60);
const { server, api, statements } = await startTracedServer({ cpuProfDir: process.env.BENCH_CPU_PROF_DIR });

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

try {
  const n = (s: string) => `${s}-${process.pid}`;
  const { type, role, site } = await deviceBasics(api);
  const device = (name: string) =>
    api('POST', '/api/dcim/devices/', { name: n(name), device_type: type.id, device_role: role.id, site: site.id });
  const sw = await device('sw');
  const peer = await device('peer');
  const ifaces = (d: { id: number }, prefix: string, count: number) =>
    api(
      'POST',
      '/api/dcim/interfaces/',
      Array.from({ length: count }, (_, i) => ({
        device: d.id,
        name: `${prefix}${Math.floor(i / 48)}/${(i % 48) + 1}`,
        type: '10gbase-x-sfpp',
      })),
    );
  const mine = (await ifaces(sw, 'Te', IFACES)) as Array<{ id: number }>;
  const theirs = (await ifaces(peer, 'Te', Math.ceil(IFACES / 2))) as Array<{ id: number }>;
  const end = (type: string, id: number) => [{ object_type: type, object_id: id }];
  for (let i = 0; i < theirs.length; i += 2)
    await api(
      'POST',
      '/api/dcim/cables/',
      [theirs[i], theirs[i + 1]]
        .filter((x) => x)
        .map((x, j) => ({
          a_terminations: end('dcim.interface', mine[i + j]!.id),
          b_terminations: end('dcim.interface', x!.id),
        })),
    );
  await api(
    'POST',
    '/api/ipam/ip-addresses/',
    mine
      .filter((_, i) => i % 5 === 0)
      .map((x, i) => ({
        address: `10.${Math.floor(i / 250)}.${i % 250}.1/24`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: x.id,
      })),
  );
  // 6 cables: sw -> P1 front | P1 rear -> P2 rear | P2 front -> P3 front | P3 rear -> P4 rear | P4 front -> P5 front | P5 rear -> peer
  const origin = (await api('POST', '/api/dcim/interfaces/', { device: sw.id, name: 'trace0', type: '1000base-t' })).id;
  const target = (await api('POST', '/api/dcim/interfaces/', { device: peer.id, name: 'trace9', type: '1000base-t' }))
    .id;
  const panels = [];
  for (let i = 1; i <= 5; i++) {
    const p = await device(`panel${i}`);
    const rear = await api('POST', '/api/dcim/rear-ports/', { device: p.id, name: 'r1', type: 'lc', positions: 1 });
    const front = await api('POST', '/api/dcim/front-ports/', {
      device: p.id,
      name: 'f1',
      type: 'lc',
      rear_port: rear.id,
    });
    panels.push({ front: front.id as number, rear: rear.id as number });
  }
  const hops: Array<[string, number, string, number]> = [
    ['dcim.interface', origin, 'dcim.frontport', panels[0]!.front],
    ['dcim.rearport', panels[0]!.rear, 'dcim.rearport', panels[1]!.rear],
    ['dcim.frontport', panels[1]!.front, 'dcim.frontport', panels[2]!.front],
    ['dcim.rearport', panels[2]!.rear, 'dcim.rearport', panels[3]!.rear],
    ['dcim.frontport', panels[3]!.front, 'dcim.frontport', panels[4]!.front],
    ['dcim.rearport', panels[4]!.rear, 'dcim.interface', target],
  ];
  for (const [at, a, bt, b] of hops)
    await api('POST', '/api/dcim/cables/', { a_terminations: end(at, a), b_terminations: end(bt, b) });
  const traced = (await api('GET', `/api/dcim/interfaces/${origin}/trace/`)) as unknown[];
  if (traced.length !== 6) throw new Error(`the trace has ${traced.length} hops, expected 6`);
  await server.analyze();
  const cookie = await signIn(server.url, 'bench', 'bench-password');
  const free = mine[mine.length - 1]!.id;
  const pages: Array<[string, string]> = [
    [`device page (${IFACES} interfaces)`, `/dcim/devices/${sw.id}/`],
    ['interfaces tab, page 1 of 50', `/dcim/devices/${sw.id}/interfaces/?per_page=50`],
    ['interfaces tab, page 10 of 50', `/dcim/devices/${sw.id}/interfaces/?per_page=50&page=10`],
    // the REST list of page 1's rows, for what the page adds to the read
    ["(REST list of page 1's rows)", `/api/dcim/interfaces/?device_id=${sw.id}&limit=50`],
    [
      'connect form from a row',
      `/dcim/cables/add/?a_terminations_type=dcim.interface&a_terminations=${free}&b_terminations_type=dcim.interface`,
    ],
    ['trace, 6 cables', `/dcim/interfaces/${origin}/trace/`],
  ];
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  };
  const rows = [];
  for (const [label, path] of pages) {
    for (let i = 0; i < 5; i++) await get(path);
    await statements();
    await get(path);
    const perRequest = await statements();
    const ms: number[] = [];
    const before = await cpuSnapshot(server.pid, PG, server.database);
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await get(path);
      ms.push(performance.now() - t0);
    }
    const cpu = cpuPerRequest(before, await cpuSnapshot(server.pid, PG, server.database), ROUNDS, server.database);
    rows.push({ label, p50: pct(ms, 0.5), p95: pct(ms, 0.95), cpu, perRequest });
  }
  console.log(`\n${IFACES} interfaces, ${ROUNDS} requests per page, one at a time; ${JSON.stringify(machine())}\n`);
  console.log('| page | p50 ms | p95 ms | CPU ms/request Node + pg | SQL statements |');
  console.log('|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${(r.cpu.serverMs ?? 0).toFixed(1)} + ${(r.cpu.postgresMs ?? 0).toFixed(1)} | ${r.perRequest} |`,
    );
} finally {
  await server.stop();
}
