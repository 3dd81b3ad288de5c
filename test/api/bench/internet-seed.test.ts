/**
 * The internet data set's SQL (bench/seed-internet-sql.ts) at 10,000 addresses: the kept row and
 * owner counts its inserts leave equal the real counts, every address, /24 and /16 lies inside its
 * parent prefix of the same VRF, and the API's list, parent= and available-ips answer the rows the
 * shape says. Plain SQL: it runs on PGlite as on PostgreSQL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIRST_PUBLIC_OCTET,
  type InternetSizes,
  internetCounts,
  internetSeedStatements,
  INTERNET_SEQUENCE_TABLES,
} from '../../../bench/seed-internet-sql.js';
import { SEQUENCE_TABLES, sequenceStatements } from '../../../bench/seed-scale-sql.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

/** 5 /16s (3 global, one in each of 2 VRFs) of 20 /24s of 100 addresses: 10,000 */
const TINY: InternetSizes = {
  dcim: {
    regions: 2,
    sitesPerRegion: 2,
    racksPerSite: 2,
    devicesPerRack: 3,
    interfacesPerDevice: 4,
    vlanGroups: 0,
    vlansPerGroup: 0,
    slash16s: 0,
    per16: 0,
    addressesPer24: 0,
  },
  vrfs: 2,
  global16s: 3,
  vrf16s: 1,
  per16: 20,
  per24: 100,
  assignedPer10: 3,
};
const n = internetCounts(TINY);
const O = FIRST_PUBLIC_OCTET;

let t: TestApp;
const rows = async <R>(q: string) => (await sql.raw<R>(q).execute(t.db.kysely)).rows;
const page = async (path: string) => {
  const res = await t.get(path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; results: Array<{ id: number; address: string }> };
};

beforeAll(async () => {
  t = await makeTestApp();
  // a small chunk, so the addresses take several statements, as at full size
  for (const step of internetSeedStatements(TINY, 3_000)) await sql.raw(step.sql).execute(t.db.kysely);
  for (const s of sequenceStatements([...SEQUENCE_TABLES, ...INTERNET_SEQUENCE_TABLES]))
    await sql.raw(s).execute(t.db.kysely);
}, 120_000);
afterAll(async () => t.close());

describe('the internet data set in SQL, 10,000 addresses', () => {
  it('makes the rows of its shape, and the kept counts equal the real ones', async () => {
    expect(n.addresses).toBe(10_000);
    const real = await rows<{
      tbl: string;
      n: number;
    }>(`select 'ipam_ipaddress' as tbl, count(*)::int as n from ipam_ipaddress
      union all select 'ipam_prefix', count(*)::int from ipam_prefix
      union all select 'dcim_device', count(*)::int from dcim_device
      union all select 'dcim_interface', count(*)::int from dcim_interface order by 1`);
    expect(real).toEqual([
      { tbl: 'dcim_device', n: 24 },
      { tbl: 'dcim_interface', n: n.interfaces },
      { tbl: 'ipam_ipaddress', n: 10_000 },
      { tbl: 'ipam_prefix', n: n.prefixes },
    ]);
    const kept = await rows<{ tbl: string; n: number }>(
      `select tbl, sum(n)::int as n from inv_row_count where tbl in ('ipam_ipaddress', 'ipam_prefix', 'dcim_device', 'dcim_interface') group by tbl order by 1`,
    );
    expect(kept).toEqual(real);
    // every per-owner count (an address's VRF, a prefix's VRF and site, a device's site...) against a group by
    const columns = await rows<{ tbl: string; col: string }>(
      `select tbl, col from inv_kept_count_column where tbl in ('ipam_ipaddress', 'ipam_prefix', 'dcim_device', 'dcim_interface')`,
    );
    expect(columns.length).toBeGreaterThan(4);
    for (const { tbl, col } of columns) {
      const want = await rows<{ owner: string; n: number }>(
        `select ${col}::text as owner, count(*)::int as n from ${tbl} where ${col} is not null group by 1 order by 1`,
      );
      const got = await rows<{ owner: string; n: number }>(
        `select owner::text as owner, sum(n)::int as n from inv_kept_count where tbl = '${tbl}' and col = '${col}' group by 1 having sum(n) <> 0 order by 1`,
      );
      expect(got, `${tbl}.${col}`).toEqual(want);
    }
    const vrfCounts = await rows<{ n: number }>(
      `select sum(n)::int as n from inv_kept_count where tbl = 'ipam_ipaddress' and col = 'vrf_id' group by owner order by owner`,
    );
    expect(vrfCounts).toEqual([{ n: 2_000 }, { n: 2_000 }]);
  });

  it('puts every address, /24 and /16 inside a parent prefix of its VRF, and the public /8s in aggregates', async () => {
    const orphans = await rows<{ what: string; n: number }>(`
      select 'address' as what, count(*)::int as n from ipam_ipaddress a where not exists (select from ipam_prefix p
        where masklen(p.prefix) = 24 and p.vrf_id is not distinct from a.vrf_id and a.address <<= p.prefix)
      union all select '/24', count(*)::int from ipam_prefix c where masklen(c.prefix) = 24 and not exists (select from ipam_prefix p
        where masklen(p.prefix) = 16 and p.vrf_id is not distinct from c.vrf_id and c.prefix << p.prefix)
      union all select '/16', count(*)::int from ipam_prefix c where masklen(c.prefix) = 16 and not exists (select from ipam_prefix p
        where masklen(p.prefix) = 8 and p.vrf_id is not distinct from c.vrf_id and c.prefix << p.prefix)
      union all select '/8', count(*)::int from ipam_prefix c where masklen(c.prefix) = 8 and not exists (select from ipam_aggregate g
        where c.prefix <<= g.prefix)
      union all select 'interface', count(*)::int from ipam_ipaddress a where assigned_object_id is not null
        and not exists (select from dcim_interface i where i.id = a.assigned_object_id)`);
    expect(
      orphans.every((o) => o.n === 0),
      JSON.stringify(orphans),
    ).toBe(true);
    const assigned = await rows<{ n: number }>(
      `select count(*)::int as n from ipam_ipaddress where assigned_object_type = 'dcim.interface'`,
    );
    expect(assigned[0]!.n).toBe(n.assigned);
  });

  it('answers the list, parent= and available-ips with the rows of the shape', async () => {
    expect((await page('/api/ipam/ip-addresses/?limit=1')).count).toBe(10_000);
    expect((await page('/api/ipam/prefixes/?limit=1')).count).toBe(n.prefixes);
    // a global /16: its 20 /24s of 100 addresses, none of the VRFs' 10/8 ones
    const ids: number[] = [];
    for (const offset of [0, 1000]) {
      const p = await page(`/api/ipam/ip-addresses/?parent=${O}.1.0.0/16&limit=1000&offset=${offset}`);
      expect(p.count).toBe(2_000);
      expect(p.results.every((a) => a.address.startsWith(`${O}.1.`))).toBe(true);
      ids.push(...p.results.map((a) => a.id));
    }
    const want = await rows<{ id: number }>(
      `select id::int as id from ipam_ipaddress where address << '${O}.1.0.0/16' order by id`,
    );
    expect([...ids].sort((a, b) => a - b)).toEqual(want.map((r) => r.id));
    // 10.0.0.0/16 is in both VRFs: parent= alone finds both, with vrf_id one
    expect((await page('/api/ipam/ip-addresses/?parent=10.0.0.0/16&limit=1')).count).toBe(4_000);
    expect((await page('/api/ipam/ip-addresses/?parent=10.0.0.0/16&vrf_id=2&limit=1')).count).toBe(2_000);
    const p24 = await rows<{ id: number }>(
      `select id::int as id from ipam_prefix where prefix = '${O}.1.0.0/24' and vrf_id is null`,
    );
    const free = await t.get(`/api/ipam/prefixes/${p24[0]!.id}/available-ips/?limit=2`);
    expect(free.statusCode, free.body).toBe(200);
    expect((free.json() as Array<{ address: string }>).map((a) => a.address)).toEqual([
      `${O}.1.0.101/24`,
      `${O}.1.0.102/24`,
    ]);
  });

  it('answers a deep page (ids first, crud/list-page.ts) with the rows and order of the whole list', async () => {
    const want = async (where: string, order: string) =>
      (
        await rows<{ id: number }>(
          `select id::int as id from ipam_ipaddress ${where} order by ${order} limit 50 offset 5000`,
        )
      ).map((r) => r.id);
    const got = async (query: string) =>
      (await page(`/api/ipam/ip-addresses/?limit=50&offset=5000${query}`)).results.map((a) => a.id);
    expect(await got('')).toEqual(await want('', 'address, id'));
    // another order, and a filter: 20 VRFs' worth of the same addresses tie on address
    expect(await got('&ordering=-dns_name')).toEqual(await want('', 'dns_name desc, id'));
    const p = await page('/api/ipam/ip-addresses/?limit=50&offset=1990&vrf_id=null');
    expect(p.count).toBe(6_000);
    expect(p.results.map((a) => a.id)).toEqual(
      (
        await rows<{ id: number }>(
          `select id::int as id from ipam_ipaddress where vrf_id is null order by address, id limit 50 offset 1990`,
        )
      ).map((r) => r.id),
    );
    expect((await page('/api/ipam/ip-addresses/?limit=50&offset=20000')).results).toEqual([]);
  });
});
