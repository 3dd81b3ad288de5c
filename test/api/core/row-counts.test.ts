/**
 * The totals of unfiltered lists of the largest tables come from their kept row counts
 * (migration 0147, core/crud/row-counts.ts), and stay exact through creates, bulk and cascading
 * deletes, rolled-back writes and TRUNCATE.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { foldGoneRowCounts } from '../../../src/db/row-count-upkeep.js';
import { uniq, makeDevice } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** the API's total (a URL of its own each time, so no cache answers) and count(*) */
async function totals(path: string, table: string): Promise<{ api: number; rows: number }> {
  const api = (await t.get(`${path}?limit=1&brief=1&_=${uniq('n')}`)).json().count as number;
  const rows = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db.kysely))
    .rows[0]!.n;
  return { api, rows };
}

describe('unfiltered list totals', () => {
  it('are read from the kept row count', async () => {
    await t.post('/api/ipam/ip-addresses/', { address: '192.0.2.1/32' });
    const before = await totals('/api/ipam/ip-addresses/', 'ipam_ipaddress');
    expect(before.api).toBe(before.rows);
    // a count that disagrees with the table shows: the total comes from inv_row_count
    await sql`insert into inv_row_count (tbl, slot, n) values ('ipam_ipaddress', 99, 1000)`.execute(t.db.kysely);
    expect((await totals('/api/ipam/ip-addresses/', 'ipam_ipaddress')).api).toBe(before.rows + 1000);
    await sql`delete from inv_row_count where tbl = 'ipam_ipaddress' and slot = 99`.execute(t.db.kysely);
    // a filtered list still counts its rows
    expect((await t.get('/api/ipam/ip-addresses/?address=192.0.2.1/32')).json().count).toBe(1);
  });

  it('stay exact through bulk creates and deletes, cascades and a refused bulk write', async () => {
    const made = await t.post(
      '/api/ipam/ip-addresses/',
      Array.from({ length: 30 }, (_, i) => ({ address: `198.51.100.${i + 1}/32` })),
    );
    expect(made.statusCode).toBe(201);
    const ids = (made.json() as Array<{ id: number }>).map((a) => a.id);
    expect(
      (
        await t.del(
          '/api/ipam/ip-addresses/',
          ids.slice(0, 10).map((id) => ({ id })),
        )
      ).statusCode,
    ).toBe(204);
    // a refused write stores nothing and counts nothing
    const refused = await t.post('/api/ipam/ip-addresses/', [{ address: '203.0.113.9/32', vrf: 999999 }]);
    expect(refused.statusCode).toBe(400);
    let now = await totals('/api/ipam/ip-addresses/', 'ipam_ipaddress');
    expect(now.api).toBe(now.rows);

    const device = await makeDevice(t);
    const name = uniq('if');
    const ifs = await t.post(
      '/api/dcim/interfaces/',
      Array.from({ length: 5 }, (_, i) => ({ device: device.id, name: `${name}-${i}`, type: 'virtual' })),
    );
    expect(ifs.statusCode).toBe(201);
    now = await totals('/api/dcim/interfaces/', 'dcim_interface');
    expect(now.api).toBe(now.rows);
    // deleting the device deletes its interfaces by cascade
    expect((await t.del(`/api/dcim/devices/${device.id}/`)).statusCode).toBe(204);
    now = await totals('/api/dcim/interfaces/', 'dcim_interface');
    expect(now.api).toBe(now.rows);
    now = await totals('/api/dcim/devices/', 'dcim_device');
    expect(now.api).toBe(now.rows);
  });

  it('start again from zero after TRUNCATE', async () => {
    await t.post('/api/ipam/vlans/', { vid: 10, name: uniq('vlan') });
    await sql`truncate ipam_vlan cascade`.execute(t.db.kysely);
    expect(await totals('/api/ipam/vlans/', 'ipam_vlan')).toEqual({ api: 0, rows: 0 });
    await t.post('/api/ipam/vlans/', { vid: 11, name: uniq('vlan') });
    expect(await totals('/api/ipam/vlans/', 'ipam_vlan')).toEqual({ api: 1, rows: 1 });
  });

  it('keep their sums when the slots of connections gone are folded into slot 0', async () => {
    await t.post('/api/ipam/ip-addresses/', { address: '192.0.2.77/32' });
    const sum = async () =>
      (
        await sql<{
          n: number;
          slots: number;
        }>`select sum(n)::int as n, count(*)::int as slots from inv_row_count where tbl = 'ipam_ipaddress'`.execute(
          t.db.kysely,
        )
      ).rows[0]!;
    // a slot of a connection that is gone (no backend has this pid)
    await sql`insert into inv_row_count (tbl, slot, n) values ('ipam_ipaddress', 2147483000, 5), ('ipam_ipaddress', 0, -5)
      on conflict (tbl, slot) do update set n = inv_row_count.n + excluded.n`.execute(t.db.kysely);
    const before = await sum();
    await foldGoneRowCounts(t.db.kysely);
    const after = await sum();
    expect(after.n).toBe(before.n);
    const gone = await sql`select 1 from inv_row_count where slot = 2147483000`.execute(t.db.kysely);
    expect(gone.rows).toHaveLength(0);
    const now = await totals('/api/ipam/ip-addresses/', 'ipam_ipaddress');
    expect(now.api).toBe(now.rows);
  });
});
