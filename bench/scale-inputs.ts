/**
 * The inputs of the internet-scale model (docs/scale.md), measured on a PostgreSQL server of its
 * own started with pg_stat_statements preloaded (as test/cluster/pg-cluster.ts starts its nodes):
 * per request of the main reads and writes, the database's time (pg_stat_statements: execution
 * and planning, summed over the statements the request ran), the backends' and the service's CPU
 * (/proc), WAL bytes (pg_current_wal_lsn before and after) and the change log's growth (the
 * partitioned extras_objectchange, all partitions); and the bytes per address and per device of
 * the tables with their indexes. The data: the internet data set's shape at a small size
 * (seed-internet.ts, --small: 100,000 addresses, 5,000 devices of 20 interfaces).
 *
 *   node --import tsx bench/scale-inputs.ts [--duration 5] [--connections 4]
 */
import pg from 'pg';
import { PgNode } from '../test/cluster/pg-cluster.js';
import { int, refuseUnknownFlags } from './args.js';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { runScenario, type Scenario, settle } from './scenarios.js';
import { INTERNET_SMALL, seedInternet } from './seed-internet.js';
import { type Server, startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
refuseUnknownFlags(argv, new Set(['--duration', '--connections']), 'bench/scale-inputs.ts');
const duration = int(argv, '--duration', 5);
const connections = int(argv, '--connections', 4);

interface Input {
  name: string;
  requests: number;
  reqPerSec: number;
  nodeMs: number;
  pgCpuMs: number;
  dbTimeMs: number;
  statements: number;
  walBytes: number;
  /** full-page images among the WAL: a page's first change after a checkpoint writes the whole page */
  fullPages: number;
  changeLogBytes: number;
  changeRows: number;
}

const json = { 'Content-Type': 'application/json' };
let k = 0;
/** the requests measured; ids are walked over what the seed made */
function scenarios(addressIds: number[], deviceIds: number[], slash16: number): Scenario[] {
  const pick = (ids: number[]) => ids[(k = (k + 7919) % ids.length)]!;
  const get = (name: string, path: () => string): Scenario => ({
    name,
    title: name,
    connections,
    timeout: 60,
    requests: () => [{ method: 'GET', setupRequest: (r) => ({ ...r, path: path() }) }],
    probe: () => ({ method: 'GET', path: path() }),
  });
  const write = (name: string, method: string, path: () => string, body: () => unknown): Scenario => ({
    name,
    title: name,
    connections,
    timeout: 60,
    requests: () => [
      { method, headers: json, setupRequest: (r) => ({ ...r, path: path(), body: JSON.stringify(body()) }) },
    ],
    probe: () => ({ method, path: path(), body: JSON.stringify(body()) }),
  });
  let n = 0;
  return [
    get('GET ip-addresses/?limit=50', () => '/api/ipam/ip-addresses/?limit=50'),
    get('GET ip-addresses/?q=', () => '/api/ipam/ip-addresses/?limit=50&q=31.1.'),
    get('GET ip-addresses/?parent=/16', () => '/api/ipam/ip-addresses/?limit=50&parent=31.1.0.0/16'),
    get('GET ip-addresses/<id>/', () => `/api/ipam/ip-addresses/${pick(addressIds)}/`),
    get('GET prefixes/?limit=50', () => '/api/ipam/prefixes/?limit=50'),
    get('GET devices/<id>/', () => `/api/dcim/devices/${pick(deviceIds)}/`),
    get('GET interfaces/?device_id=', () => `/api/dcim/interfaces/?device_id=${pick(deviceIds)}`),
    write(
      'POST ip-addresses/ (a /32)',
      'POST',
      () => '/api/ipam/ip-addresses/',
      () => {
        const i = n++;
        return { address: `172.${16 + ((i >> 16) & 15)}.${(i >> 8) & 255}.${i & 255}/32`, status: 'active' };
      },
    ),
    write(
      'PATCH ip-addresses/<id>/',
      'PATCH',
      () => `/api/ipam/ip-addresses/${pick(addressIds)}/`,
      () => ({ description: `d${n++}` }),
    ),
    write(
      'POST devices/',
      'POST',
      () => '/api/dcim/devices/',
      () => ({
        name: `new-${n++}`,
        site: 1,
        device_type: 1,
        role: 1,
      }),
    ),
    write(
      'PATCH devices/<id>/',
      'PATCH',
      () => `/api/dcim/devices/${pick(deviceIds)}/`,
      () => ({ serial: `s${n++}` }),
    ),
    // one allocation at a time per VRF (an advisory lock, ipam/common.ts): req/s is that lock's
    write(
      'POST prefixes/<a /16>/available-ips/',
      'POST',
      () => `/api/ipam/prefixes/${slash16}/available-ips/`,
      () => ({ status: 'active' }),
    ),
  ];
}

async function measure(server: Server, db: pg.Client, admin: string, s: Scenario): Promise<Input> {
  const one = async <T>(q: string) => (await db.query(q)).rows[0] as T;
  const changeLog = `select coalesce(sum(pg_total_relation_size(relid)), 0)::bigint as b,
    (select count(*) from extras_objectchange)::bigint as n from pg_partition_tree('extras_objectchange')`;
  await runScenario(s, server.url, TOKEN, 1); // warm-up
  await settle(server.url, TOKEN);
  await db.query('select pg_stat_statements_reset()');
  const c0 = await one<{ b: string; n: string }>(changeLog);
  const lsn0 = await one<{ l: string }>('select pg_current_wal_lsn() as l');
  const cpu0 = await cpuSnapshot(server.pid, admin, server.database);
  const r = await runScenario(s, server.url, TOKEN, duration);
  await settle(server.url, TOKEN);
  const cpu = cpuPerRequest(cpu0, await cpuSnapshot(server.pid, admin, server.database), r.requests, server.database);
  if (r.errors + r.non2xx > 0) throw new Error(`${s.name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  const wal = await one<{ w: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '${lsn0.l}')::bigint as w`);
  const c1 = await one<{ b: string; n: string }>(changeLog);
  // the service's statements only: not this client's, not the settle request's (one in thousands)
  const st = await one<{ t: number; calls: string; fpi: string }>(`select sum(total_exec_time + total_plan_time) as t,
    sum(calls)::bigint as calls, sum(wal_fpi)::bigint as fpi
    from pg_stat_statements s join pg_database d on d.oid = s.dbid
    where d.datname = current_database() and query not like '%pg_stat_statements%' and query not like '%pg_partition_tree%'
      and query not like '%pg_current_wal_lsn%'`);
  const per = (x: number) => x / Math.max(1, r.requests);
  return {
    name: s.name,
    requests: r.requests,
    reqPerSec: r.reqPerSecMean,
    nodeMs: cpu.serverMs ?? 0,
    pgCpuMs: cpu.postgresMs ?? 0,
    dbTimeMs: per(Number(st.t)),
    statements: per(Number(st.calls)),
    walBytes: per(Number(wal.w)),
    fullPages: per(Number(st.fpi)),
    changeLogBytes: per(Number(c1.b) - Number(c0.b)),
    changeRows: per(Number(c1.n) - Number(c0.n)),
  };
}

const node = await PgNode.create('inputs', [
  "shared_preload_libraries='pg_stat_statements'",
  'pg_stat_statements.track=top',
  'shared_buffers=512MB',
]);
let server: Server | undefined;
try {
  await node.initdb();
  await node.start();
  const admin = node.url();
  server = await startServer({ engine: 'postgres', pgUrl: admin, env: { RESPONSE_CACHE_MB: '0', WORKERS: '1' } });
  const dbUrl = node.url(server.database!);
  const api = { base: server.url, token: TOKEN };
  const seeded = await seedInternet(api, dbUrl, INTERNET_SMALL, () => undefined);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    for (const q of ['create extension if not exists pg_stat_statements', 'vacuum analyze', 'checkpoint'])
      await db.query(q);
    const sizes = await db.query<{
      t: string;
      bytes: string;
      rows: string;
    }>(`select t, pg_total_relation_size(t)::bigint as bytes,
      (select count(*) from ipam_ipaddress) * (t = 'ipam_ipaddress')::int + (select count(*) from dcim_device) * (t = 'dcim_device')::int
      + (select count(*) from dcim_interface) * (t = 'dcim_interface')::int as rows
      from unnest(array['ipam_ipaddress', 'dcim_device', 'dcim_interface']) t`);
    for (const s of sizes.rows)
      console.log(
        `${s.t}: ${(Number(s.bytes) / 1e6).toFixed(1)} MB, ${s.rows} rows, ${(Number(s.bytes) / Number(s.rows)).toFixed(0)} bytes/row with indexes`,
      );
    const addressIds = (await db.query<{ id: string }>('select id from ipam_ipaddress order by id')).rows.map((r) =>
      Number(r.id),
    );
    console.log(
      '| request | req/s | CPU ms/req Node + pg | db time ms/req | statements/req | WAL bytes/req | full pages/req | change log bytes/req | change rows/req |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    const slash16 = await db.query<{ id: string }>(
      `select id from ipam_prefix where prefix = '31.1.0.0/16' and vrf_id is null`,
    );
    for (const s of scenarios(addressIds, seeded.deviceIds, Number(slash16.rows[0]!.id))) {
      const m = await measure(server, db, admin, s);
      console.log(
        `| \`${m.name}\` | ${m.reqPerSec.toFixed(0)} | ${m.nodeMs.toFixed(2)} + ${m.pgCpuMs.toFixed(2)} | ${m.dbTimeMs.toFixed(2)} | ${m.statements.toFixed(1)} | ${m.walBytes.toFixed(0)} | ${m.fullPages.toFixed(2)} | ${m.changeLogBytes.toFixed(0)} | ${m.changeRows.toFixed(2)} |`,
      );
    }
  } finally {
    await db.end();
  }
} finally {
  await server?.stop();
  await node.destroy();
}
