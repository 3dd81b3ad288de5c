/**
 * The scale data set is written in bulk SQL (bench/seed-scale-sql.ts), not through the API. This
 * proves the SQL stores what the API's write path stores: a small size of the same shape is seeded
 * through the API (bench/seed-standard.ts, one client, so ids follow the input order) into one
 * database and through the SQL into another, both made by the service's migrations; then every
 * list page and every object's detail must answer the same JSON (apart from created/last_updated
 * and the server's own address in urls), and every table must hold as many rows, apart from the
 * change log, which the SQL path leaves out on purpose.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaleCounts, scaleSeedStatements, sequenceStatements } from '../../../bench/seed-scale-sql.js';
import { seedStandard, type StandardSizes } from '../../../bench/seed-standard.js';
import {
  CHILD_TOKEN,
  type ChildDatabase,
  childDatabase,
  type ChildService,
  startChildService,
} from '../../helpers/child-service.js';

/** every branch of the shape: sites with 2 groups and with 1, addresses wrapping past 10/8 into 11/8 */
const TINY: StandardSizes = {
  regions: 2,
  sitesPerRegion: 2,
  racksPerSite: 2,
  devicesPerRack: 3,
  interfacesPerDevice: 3,
  vlanGroups: 6,
  vlansPerGroup: 3,
  slash16s: 3,
  per16: 5,
  addressesPer24: 4,
  tenSlash16s: 2,
};

const LISTS = [
  'dcim/regions',
  'dcim/sites',
  'dcim/racks',
  'dcim/manufacturers',
  'dcim/device-types',
  'dcim/device-roles',
  'dcim/devices',
  'dcim/interfaces',
  'ipam/vlan-groups',
  'ipam/vlans',
  'ipam/prefixes',
  'ipam/ip-addresses',
];

/**
 * written by the API path only, on purpose (bench data needs no history); the event outbox
 * (core_event) gets rows only for matching event rules, and there are none here
 */
const API_ONLY_TABLES = new Set(['extras_objectchange']);
/** kept row and per-owner counts (migrations 0147, 0148): one slot per connection that wrote, so compared by their sums */
const KEPT_COUNTS = new Set(['inv_row_count', 'inv_kept_count']);

type Json = unknown;

/** drops what legitimately differs: timestamps, and the server's address inside urls */
function normalise(v: Json, base: string): Json {
  if (Array.isArray(v)) return v.map((x) => normalise(x, base));
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'created' && k !== 'last_updated')
        .map(([k, x]) => [k, normalise(x, base)]),
    );
  }
  return typeof v === 'string' ? v.replaceAll(base, 'BASE') : v;
}

async function getJson(svc: ChildService, path: string): Promise<Json> {
  const res = await fetch(`${svc.url}${path}`, {
    headers: { Authorization: `Token ${CHILD_TOKEN}`, Accept: 'application/json' },
  });
  expect(res.status, path).toBe(200);
  return normalise(await res.json(), svc.url);
}

async function tableCounts(db: ChildDatabase): Promise<Record<string, number>> {
  const d = await db.open();
  try {
    // a partition's rows are counted in its parent's (the change log's months, migration 0215)
    const tables = await sql<{ t: string }>`select table_name as t from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name::text not in (select relname from pg_class where relispartition) order by 1`.execute(d.kysely);
    const out: Record<string, number> = {};
    for (const { t } of tables.rows) {
      const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t)}`.execute(d.kysely);
      out[t] = Number(r.rows[0]!.n);
    }
    return out;
  } finally {
    await d.close();
  }
}

async function stop(svc: ChildService | undefined): Promise<void> {
  if (!svc || svc.child.exitCode !== null) return;
  svc.child.kill('SIGTERM');
  await svc.exited;
}

describe('the scale data set written in SQL', () => {
  let viaApi: ChildDatabase;
  let viaSql: ChildDatabase;
  let apiSvc: ChildService | undefined;
  let sqlSvc: ChildService | undefined;

  beforeAll(async () => {
    viaApi = await childDatabase();
    viaSql = await childDatabase();
    // SQL first, with no service holding the database (PGlite allows one opener)
    const d = await viaSql.open();
    for (const step of scaleSeedStatements(TINY)) await sql.raw(step.sql).execute(d.kysely);
    for (const s of sequenceStatements()) await sql.raw(s).execute(d.kysely);
    await d.close();
    [apiSvc, sqlSvc] = await Promise.all([startChildService(viaApi), startChildService(viaSql)]);
    await seedStandard({ base: apiSvc.url, token: CHILD_TOKEN }, TINY, () => undefined, 1);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stop(apiSvc), stop(sqlSvc)]);
    await Promise.all([viaApi?.drop(), viaSql?.drop()]);
  });

  it('answers every list page and every detail as the API-seeded data does', async () => {
    const n = scaleCounts(TINY);
    let details = 0;
    for (const list of LISTS) {
      const path = `/api/${list}/?limit=1000`;
      type Page = { count: number; results: Array<{ id: number }> };
      const [a, b] = (await Promise.all([getJson(apiSvc!, path), getJson(sqlSvc!, path)])) as [Page, Page];
      expect(b, list).toEqual(a);
      expect(a.count, list).toBeGreaterThan(0);
      for (const { id } of a.results) {
        const one = `/api/${list}/${id}/`;
        const [x, y] = await Promise.all([getJson(apiSvc!, one), getJson(sqlSvc!, one)]);
        expect(y, one).toEqual(x);
        details++;
      }
    }
    expect(details).toBe(Object.values(n).reduce((s, v) => s + v, 0) + 10 + 20 + 5);
  }, 120_000);

  it('holds as many rows in every table, but the change log', async () => {
    await Promise.all([stop(apiSvc), stop(sqlSvc)]);
    const [a, b] = await Promise.all([tableCounts(viaApi), tableCounts(viaSql)]);
    const differ = Object.keys(a).filter((t) => !KEPT_COUNTS.has(t) && a[t] !== b[t]);
    expect(differ.sort()).toEqual([...API_ONLY_TABLES].filter((t) => t in a).sort());
    expect(b.ipam_ipaddress).toBe(scaleCounts(TINY).addresses);
  }, 60_000);

  it('keeps the same per-owner counts both ways', async () => {
    const sums = async (db: ChildDatabase) => {
      const d = await db.open();
      try {
        return (
          await sql<{
            k: string;
            n: number;
          }>`select tbl || '.' || col || '.' || owner as k, sum(n)::int as n from inv_kept_count
          group by tbl, col, owner having sum(n) <> 0 order by 1`.execute(d.kysely)
        ).rows;
      } finally {
        await d.close();
      }
    };
    const [a, b] = await Promise.all([sums(viaApi), sums(viaSql)]);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  }, 60_000);

  it('keeps the row counts of the SQL-seeded tables equal to their rows', async () => {
    const d = await viaSql.open();
    try {
      const res = await sql<{ tbl: string; kept: number; rows: number }>`select tbl, sum(n)::int as kept,
          (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %I', tbl), false, true, '')))[1]::text::int as rows
        from inv_row_count group by tbl`.execute(d.kysely);
      expect(res.rows.length).toBeGreaterThan(0);
      for (const r of res.rows) expect(r.kept, r.tbl).toBe(r.rows);
    } finally {
      await d.close();
    }
  }, 60_000);
});
