/**
 * GraphQL against REST for the same tree: 1,000 devices, each with its name, primary
 * IPv4 address and interfaces with their addresses - one GraphQL query, or the REST calls a client
 * makes for it (devices, then every page of interfaces and of assigned addresses, joined on the
 * client). Both answers are checked to hold the same tree before anything is measured.
 *
 *   node --import tsx bench/graphql.ts [--engine postgres|pglite|both] [--rounds N] [--pg-url URL]
 *     [--only graphql|rest] [--cpu-prof]   (profiles in bench/results/prof/, summarise with
 *     bench/profile-summary.ts <dir> --last S: the last side measured)
 *
 * Per engine: a fresh database and server (bench/server.ts, RESPONSE_CACHE_MB=0 so REST renders
 * every read as GraphQL does), seeded through bulk POSTs (seed-ipam.ts: 1,000 devices with 4
 * interfaces each, 4,000 addresses of which 1,600 sit on interfaces), then N rounds of each side
 * in turn. Reported per logical request (the whole tree): wall time (median) and server CPU ms
 * (and PostgreSQL backends' CPU ms) from /proc (cpu-meter.ts). Results: bench/results/graphql-*.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { type Api, call } from './http.js';
import { type IpamSizes, seedIpam } from './seed-ipam.js';
import { ROOT, startServer, TOKEN } from './server.js';

// biome-ignore lint/suspicious/noExplicitAny: the bench walks API answers by field name; the tests check their shapes
type Json = Record<string, any>;

const SIZES: IpamSizes = {
  sites: 10,
  racksPerSite: 5,
  devices: 1000,
  interfacesPerDevice: 4,
  slash16s: 4,
  childrenPer16: 49,
  filledPer16: 5,
  hostsPer24: 200,
};
const QUERY = '{ device_list { name primary_ip4 { address } interfaces { name ip_addresses { address } } } }';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
const engineArg = flag('--engine', 'both');
const engines = (engineArg === 'both' ? ['postgres', 'pglite'] : [engineArg]) as Array<'postgres' | 'pglite'>;
const rounds = Number(flag('--rounds', '10'));
const pgUrl = flag('--pg-url', 'postgres://postgres@127.0.0.1:5432/postgres');
const only = flag('--only', '');
const cpuProf = argv.includes('--cpu-prof');

async function viaGraphql(api: Api): Promise<Json[]> {
  const out = await call<Json>(api, 'POST', '/graphql/', { query: QUERY });
  if (out.errors) throw new Error(`GraphQL errors: ${JSON.stringify(out.errors).slice(0, 500)}`);
  return out.data.device_list;
}

async function allPages(api: Api, path: string): Promise<Json[]> {
  const rows: Json[] = [];
  let next: string | null = path;
  while (next) {
    const page: Json = await call<Json>(api, 'GET', next.replace(api.base, ''));
    rows.push(...page.results);
    next = page.next;
  }
  return rows;
}

/** The same tree from REST: devices, interfaces and assigned addresses, joined here. */
async function viaRest(api: Api): Promise<Json[]> {
  const [devices, interfaces, addresses] = await Promise.all([
    allPages(api, '/api/dcim/devices/?limit=1000&exclude=config_context'),
    allPages(api, '/api/dcim/interfaces/?limit=1000'),
    allPages(api, '/api/ipam/ip-addresses/?assigned_object_type=dcim.interface&limit=1000'),
  ]);
  const byInterface = new Map<number, Json[]>();
  for (const a of addresses)
    byInterface.set(a.assigned_object_id, [...(byInterface.get(a.assigned_object_id) ?? []), { address: a.address }]);
  const byDevice = new Map<number, Json[]>();
  for (const i of interfaces)
    byDevice.set(i.device.id, [
      ...(byDevice.get(i.device.id) ?? []),
      { name: i.name, ip_addresses: byInterface.get(i.id) ?? [] },
    ]);
  return devices.map((d) => ({
    name: d.name,
    primary_ip4: d.primary_ip4 ? { address: d.primary_ip4.address } : null,
    interfaces: byDevice.get(d.id) ?? [],
  }));
}

/** both trees, in one canonical order, for the equality check */
const canonical = (tree: Json[]) =>
  JSON.stringify(
    [...tree]
      .map(
        (d): Json => ({
          ...d,
          interfaces: [...d.interfaces]
            .map((i: Json) => ({
              ...i,
              ip_addresses: [...i.ip_addresses].sort((a: Json, b: Json) => (a.address < b.address ? -1 : 1)),
            }))
            .sort((a: Json, b: Json) => (a.name < b.name ? -1 : 1)),
        }),
      )
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
  );

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(engine: 'postgres' | 'pglite') {
  const cpuProfDir = cpuProf ? join(ROOT, 'bench/results/prof', `graphql-${engine}-${Date.now()}`) : undefined;
  const server = await startServer({
    engine,
    pgUrl,
    env: { RESPONSE_CACHE_MB: '0' },
    ...(cpuProfDir ? { cpuProfDir } : {}),
  });
  try {
    const api: Api = { base: server.url, token: TOKEN };
    const seeded = await seedIpam(api, SIZES, () => undefined);
    console.log(`${engine}: seeded ${seeded.summary}`);
    await server.analyze();
    const g = await viaGraphql(api);
    const r = await viaRest(api);
    if (g.length !== 1000 || canonical(g) !== canonical(r)) throw new Error('GraphQL and REST trees differ');
    const sides = { graphql: viaGraphql, rest: viaRest } as const;
    const result: Json = {
      engine,
      devices: g.length,
      interfaces: g.reduce((n, d) => n + d.interfaces.length, 0),
      rounds,
    };
    for (const [name, run] of Object.entries(sides)) {
      if (only && name !== only) continue;
      await run(api); // warm
      const walls: number[] = [];
      const before = await cpuSnapshot(server.pid, pgUrl, server.database);
      for (let i = 0; i < rounds; i++) {
        const t0 = performance.now();
        await run(api);
        walls.push(performance.now() - t0);
      }
      const cpu = cpuPerRequest(before, await cpuSnapshot(server.pid, pgUrl, server.database), rounds, server.database);
      result[name] = {
        wallMsMedian: Math.round(median(walls)),
        serverCpuMs: cpu.serverMs === null ? null : Math.round(cpu.serverMs),
        postgresCpuMs: cpu.postgresMs === null ? null : Math.round(cpu.postgresMs),
      };
    }
    return result;
  } finally {
    await server.stop();
  }
}

const results: Json[] = [];
for (const engine of engines) results.push(await measure(engine));
console.log('\nthe tree of 1,000 devices: one GraphQL query vs the REST calls (7 pages), per whole tree');
console.log('engine    side     wall ms (median)  server CPU ms  PostgreSQL CPU ms');
for (const r of results) {
  for (const side of ['graphql', 'rest']) {
    const s = r[side];
    if (!s) continue;
    console.log(
      `${r.engine.padEnd(9)} ${side.padEnd(8)} ${String(s.wallMsMedian).padStart(16)}  ${String(s.serverCpuMs).padStart(13)}  ${String(s.postgresCpuMs ?? '-').padStart(17)}`,
    );
  }
}
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const file = join(ROOT, `bench/results/graphql-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`written ${file}`);
