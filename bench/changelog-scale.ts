/**
 * The change log at size, on PostgreSQL (`node --import tsx bench/changelog-scale.ts [--rows
 * 10000000] [--months 12] [--rounds 30]`): `--rows` change records made in bulk SQL, spread evenly
 * over the last `--months` months up to now, each month loaded into a table of its own and attached
 * as its partition (the indexes are built once, at the attach), as a year of a busy instance's
 * writes would have left them. Then, one request at a time as a client reads them: the list page
 * (API and web), one object's changes, one request's changes and one change by id; p50/p95 and
 * the service's and PostgreSQL's CPU ms per request; and EXPLAIN (ANALYZE, BUFFERS) of each
 * request's page query, which shows what a read touches in the partitions it does not need.
 */
import pg from 'pg';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { call } from './http.js';
import { machine } from './report.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startServer, TOKEN } from './server.js';
import { PG } from './traced-server.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? 0) || fallback;
const ROWS = arg('rows', 10_000_000);
const MONTHS = arg('months', 12);
const ROUNDS = arg('rounds', 30);
const TYPES = [
  'dcim.site',
  'dcim.device',
  'dcim.interface',
  'dcim.cable',
  'ipam.ipaddress',
  'ipam.prefix',
  'ipam.vlan',
  'tenancy.tenant',
  'virtualization.virtualmachine',
  'circuits.circuit',
];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

// retention off: the first upkeep round must not drop the year just loaded
const server = await startServer({ engine: 'postgres', pgUrl: PG, env: { CHANGELOG_RETENTION: '0' } });
const url = new URL(PG);
url.pathname = `/${server.database}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
const q = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
  (await client.query<T>(text, params)).rows;

/**
 * Change g (1..ROWS), in time order: 10 object types in turn, 100,000 objects per type, about 10
 * changes per object over the year; five changes per request; a create and a delete now and then.
 */
const ROW_SQL = `select g as id, $1::timestamptz + (g - $3) * ($2::timestamptz - $1::timestamptz) / ($4 - $3 + 1) as time,
    'bench' as user_name, md5('req' || (g / 5)::text)::uuid as request_id,
    case when g % 10 = 0 then 'delete' when g % 10 < 3 then 'create' else 'update' end as action,
    (array['${TYPES.join("','")}'])[1 + g % 10] as changed_object_type, 1 + (g / 10) * 7919 % 100000 as changed_object_id,
    'object ' || (1 + (g / 10) * 7919 % 100000) as object_repr,
    case when g % 10 between 1 and 2 then null else jsonb_build_object('name', 'object ' || g / 10, 'status', 'active',
      'description', 'a change made by the benchmark', 'tags', '[]'::jsonb, 'custom_fields', '{}'::jsonb) end as prechange_data,
    case when g % 10 = 0 then null else jsonb_build_object('name', 'object ' || g / 10, 'status', 'planned',
      'description', 'a change made by the benchmark', 'tags', '[]'::jsonb, 'custom_fields', '{}'::jsonb) end as postchange_data
  from generate_series($3::bigint, $4::bigint) g`;
const COLUMNS =
  'id, time, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, prechange_data, postchange_data';

async function load(): Promise<void> {
  await q('set statement_timeout = 0');
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1));
  const span = now.getTime() - from.getTime();
  let next = 1;
  for (let i = 0; i < MONTHS; i++) {
    const lo = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i, 1));
    const hi = new Date(Date.UTC(lo.getUTCFullYear(), lo.getUTCMonth() + 1, 1));
    const upTo = hi < now ? hi : now;
    const last = i === MONTHS - 1 ? ROWS : Math.round((ROWS * (upTo.getTime() - from.getTime())) / span);
    const name = `extras_objectchange_p${lo.getUTCFullYear()}${String(lo.getUTCMonth() + 1).padStart(2, '0')}`;
    const t0 = performance.now();
    // the service made this month's partition at its start (empty): loaded apart like the others
    await q(`alter table extras_objectchange detach partition ${name}`).catch(() => undefined);
    await q(`drop table if exists ${name}`);
    await q(`create table ${name} (like extras_objectchange including defaults)`);
    await q(`insert into ${name} (${COLUMNS}) ${ROW_SQL}`, [lo, upTo, next, last]);
    await q(
      `alter table extras_objectchange attach partition ${name} for values from ('${lo.toISOString()}') to ('${hi.toISOString()}')`,
    );
    console.log(`${name}: ${last - next + 1} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    next = last + 1;
  }
  await q(`select setval('extras_objectchange_id_seq', $1)`, [ROWS]);
  // the kept row count (0147_row_counts.sql): the load went around the parent's triggers
  await q(`update inv_row_count set n = n + $1 where tbl = 'extras_objectchange' and slot = 0`, [ROWS]);
  await server.analyze();
}

const EXPLAINED = {
  list: 'order by t.time desc, t.id desc limit 50',
  object: `where t.changed_object_type = $1 and t.changed_object_id = $2 order by t.time desc, t.id desc limit 50`,
  request: `where t.request_id = any($1::uuid[]) order by t.time desc, t.id desc limit 50`,
  detail: 'where t.id = $1',
};

/** the service's page query (core/query) with the total beside each row, as it sends it */
function pageQuery(where: string, count: string | null): string {
  return `select t.*${count ? `, (select count(*)::int from extras_objectchange t ${count}) as __total` : ''} from extras_objectchange t ${where}`;
}

try {
  const t0 = performance.now();
  await load();
  const loadS = (performance.now() - t0) / 1000;
  const [obj] = await q<{ changed_object_type: string; changed_object_id: string }>(
    'select changed_object_type, changed_object_id from extras_objectchange order by time desc, id desc limit 1',
  );
  // a request of half a year ago, and a change in the middle
  const [old] = await q<{ request_id: string; id: string }>(
    `select request_id, id from extras_objectchange where id = $1`,
    [Math.floor(ROWS / 2)],
  );
  const api = { base: server.url, token: TOKEN };
  const cookie = await signIn(server.url, ADMIN_USERNAME, ADMIN_PASSWORD);
  const objectPath = `?changed_object_type=${obj!.changed_object_type}&changed_object_id=${obj!.changed_object_id}`;
  const probes: Array<{ name: string; get: () => Promise<unknown> }> = [
    { name: 'API list, 50 newest', get: () => call(api, 'GET', '/api/extras/object-changes/?limit=50') },
    {
      name: 'web list /core/changelog/',
      get: async () => {
        const res = await fetch(`${server.url}/core/changelog/`, { headers: { Cookie: cookie } });
        if (res.status !== 200) throw new Error(`/core/changelog/: ${res.status}`);
        return res.text();
      },
    },
    { name: "an object's changes", get: () => call(api, 'GET', `/api/extras/object-changes/${objectPath}`) },
    {
      name: "a request's changes",
      get: () => call(api, 'GET', `/api/extras/object-changes/?request_id=${old!.request_id}`),
    },
    { name: 'one change by id', get: () => call(api, 'GET', `/api/extras/object-changes/${old!.id}/`) },
  ];
  const rows: string[] = [];
  for (const p of probes) {
    for (let i = 0; i < 3; i++) await p.get();
    const ms: number[] = [];
    const before = await cpuSnapshot(server.pid, PG, server.database);
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      await p.get();
      ms.push(performance.now() - t);
    }
    const cpu = cpuPerRequest(before, await cpuSnapshot(server.pid, PG, server.database), ROUNDS, server.database);
    rows.push(
      `| ${p.name} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} | ${(cpu.serverMs ?? 0).toFixed(1)} + ${(cpu.postgresMs ?? 0).toFixed(1)} |`,
    );
  }
  const explained: string[] = [];
  const explain = async (name: string, text: string, params: unknown[]) => {
    const plan = (await q<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${text}`, params)).map(
      (r) => r['QUERY PLAN'],
    );
    console.log(`\n-- ${name}\n${plan.join('\n')}`);
    // the statement's own buffers (its first Buffers line) and time, for the summary below
    const buffers = /Buffers: (.*)/.exec(plan.find((l) => l.includes('Buffers:')) ?? '')?.[1] ?? '';
    const ms = /Execution Time: ([\d.]+)/.exec(plan.find((l) => l.startsWith('Execution Time')) ?? '')?.[1] ?? '';
    explained.push(`| ${name} | ${buffers} | ${ms} |`);
  };
  const objectWhere = EXPLAINED.object;
  await explain('API list, 50 newest', pageQuery(EXPLAINED.list, null), []);
  await explain("an object's changes", pageQuery(objectWhere, objectWhere.split(' order by')[0]!), [
    obj!.changed_object_type,
    obj!.changed_object_id,
  ]);
  await explain("a request's changes", pageQuery(EXPLAINED.request, EXPLAINED.request.split(' order by')[0]!), [
    [old!.request_id],
  ]);
  await explain('one change by id', pageQuery(EXPLAINED.detail, null), [old!.id]);
  const [size] = await q<{ total: string }>(
    `select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) as total from pg_inherits where inhparent = 'extras_objectchange'::regclass`,
  );
  console.log(
    `\n${ROWS.toLocaleString('en')} changes over ${MONTHS} monthly partitions (${size!.total} with indexes), loaded in ${loadS.toFixed(0)} s; ${ROUNDS} requests one at a time; ${JSON.stringify(machine())}\n`,
  );
  console.log('| request | p50 ms | p95 ms | CPU ms/request Node + pg |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log('\n| page query (EXPLAIN ANALYZE) | buffers | execution ms |');
  console.log('|---|---|---|');
  for (const r of explained) console.log(r);
} finally {
  await client.end();
  await server.stop();
}
