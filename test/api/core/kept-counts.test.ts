/**
 * The counts declared `kept` (a site's devices, prefixes, racks...) are read from the per-owner
 * counts the counted tables keep (migrations 0148, 0149 and 0150, load-related.ts countSql), and stay exact
 * through single and bulk creates, moves between owners, cascades, refused writes and TRUNCATE.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { keptColumns } from '../../../src/core/represent/load-related.js';
import { gqlData } from '../graphql/helpers.js';
import { foldGoneKeptCounts } from '../../../src/db/row-count-upkeep.js';
import { Registry } from '../../../src/core/model/registry.js';
import { registerAllModels } from '../../../src/apps/index.js';
import {
  uniq,
  type Json,
  make,
  makeDevice,
  makeDeviceType,
  makeRack,
  makeRole,
  makeSite,
} from '../../factories/index.js';

const registry = new Registry();
registerAllModels(registry);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** every kept (table, column) as the models declare them */
function declared(): string[] {
  return [...keptColumns(registry)].sort();
}

/**
 * The invariant: for every kept column, the sum over each owner's slots equals count(*) of the
 * rows pointing at it (owners with no rows may keep a 0).
 */
async function assertKeptMatchRows(): Promise<void> {
  for (const pair of declared()) {
    const [table, column] = pair.split('.') as [string, string];
    const rows = await sql<{
      owner: string;
      n: number;
    }>`select ${sql.ref(column)}::text as owner, count(*)::int as n from ${sql.table(table)}
      where ${sql.ref(column)} is not null group by 1 order by 1`.execute(t.db.kysely);
    const kept = await sql<{
      owner: string;
      n: number;
    }>`select owner::text as owner, sum(n)::int as n from inv_kept_count
      where tbl = ${table} and col = ${column} group by 1 having sum(n) <> 0 order by 1`.execute(t.db.kysely);
    expect(kept.rows, pair).toEqual(rows.rows);
  }
}

async function siteCounts(site: Json): Promise<Json> {
  const body = (await t.get(`/api/dcim/sites/${site.id}/?_=${uniq('n')}`)).json();
  const { device_count, prefix_count, rack_count, vlan_count, virtualmachine_count, circuit_count } = body;
  return { device_count, prefix_count, rack_count, vlan_count, virtualmachine_count, circuit_count };
}

async function deviceAt(site: Json, extra: Json): Promise<Json> {
  return { name: uniq('dev'), site: site.id, ...extra };
}

describe('kept counts', () => {
  it('are the columns migrations 0148, 0149 and 0150 list, each with its triggers', async () => {
    const listed = await sql<{
      p: string;
    }>`select tbl || '.' || col as p from inv_kept_count_column order by 1`.execute(t.db.kysely);
    expect(listed.rows.map((r) => r.p)).toEqual(declared());
    expect(declared()).toContain('dcim_device.site_id');
    for (const table of new Set(declared().map((p) => p.split('.')[0]!))) {
      const triggers = await sql<{
        name: string;
      }>`select g.tgname as name from pg_trigger g join pg_class c on c.oid = g.tgrelid
        where c.relname = ${table} and g.tgname like 'inv_kept_count_%' order by 1`.execute(t.db.kysely);
      expect(
        triggers.rows.map((r) => r.name),
        table,
      ).toEqual([
        'inv_kept_count_deleted',
        'inv_kept_count_inserted',
        'inv_kept_count_truncated',
        'inv_kept_count_updated',
      ]);
    }
  });

  it('are what a site, a device type and a role show, read from inv_kept_count', async () => {
    const site = await makeSite(t);
    const type = await makeDeviceType(t);
    const role = await makeRole(t);
    const base = { device_type: type.id, role: role.id };
    await make(t, '/api/dcim/devices/', await deviceAt(site, base));
    const bulk = await t.post('/api/dcim/devices/', [await deviceAt(site, base), await deviceAt(site, base)]);
    expect(bulk.statusCode).toBe(201);
    await makeRack(t, site);
    await make(t, '/api/ipam/prefixes/', { prefix: '10.201.0.0/24', site: site.id });
    await make(t, '/api/ipam/vlans/', { vid: 201, name: uniq('vlan'), site: site.id });
    expect(await siteCounts(site)).toEqual({
      device_count: 3,
      prefix_count: 1,
      rack_count: 1,
      vlan_count: 1,
      virtualmachine_count: 0,
      circuit_count: 0,
    });
    expect((await t.get(`/api/dcim/device-types/${type.id}/`)).json().device_count).toBe(3);
    expect((await t.get(`/api/dcim/device-roles/${role.id}/`)).json().device_count).toBe(3);
    // a kept count that disagrees with the table shows: the count is read, not counted
    await sql`insert into inv_kept_count (tbl, col, owner, slot, n) values ('dcim_device', 'site_id', ${site.id}, 2147483001, 40)`.execute(
      t.db.kysely,
    );
    expect((await siteCounts(site)).device_count).toBe(43);
    const page = (await t.get(`/api/dcim/sites/?id=${site.id}&_=${uniq('n')}`)).json();
    expect(page.results[0].device_count).toBe(43);
    const graph = await gqlData(t, 'query($id: ID!) { site(id: $id) { device_count rack_count } }', { id: site.id });
    expect(graph.site).toEqual({ device_count: 43, rack_count: 1 });
    await sql`delete from inv_kept_count where slot = 2147483001`.execute(t.db.kysely);
    await assertKeptMatchRows();
  });

  it("are a device's component counts (migration 0150), through bulk creates, deletes and the device's own delete", async () => {
    const device = await makeDevice(t);
    const other = await makeDevice(t);
    const counts = async (d: Json) => {
      const body = (await t.get(`/api/dcim/devices/${d.id}/?_=${uniq('n')}`)).json();
      return Object.fromEntries(Object.entries(body).filter(([k]) => k.endsWith('_count')));
    };
    const ifaces = await t.post(
      '/api/dcim/interfaces/',
      [device, device, device, other].map((d, i) => ({ device: d.id, name: `eth${i}`, type: '1000base-t' })),
    );
    expect(ifaces.statusCode).toBe(201);
    await make(t, '/api/dcim/console-ports/', { device: device.id, name: 'con0' });
    const rear = await make(t, '/api/dcim/rear-ports/', { device: device.id, name: 'r0', type: '8p8c', positions: 2 });
    await make(t, '/api/dcim/front-ports/', {
      device: device.id,
      name: 'f0',
      type: '8p8c',
      rear_port: rear.id,
      rear_port_position: 1,
    });
    await make(t, '/api/dcim/module-bays/', { device: device.id, name: 'mb0' });
    await make(t, '/api/dcim/inventory-items/', { device: device.id, name: uniq('inv') });
    expect(await counts(device)).toEqual({
      console_port_count: 1,
      console_server_port_count: 0,
      power_port_count: 0,
      power_outlet_count: 0,
      interface_count: 3,
      front_port_count: 1,
      rear_port_count: 1,
      device_bay_count: 0,
      module_bay_count: 1,
      inventory_item_count: 1,
    });
    expect((await counts(other)).interface_count).toBe(1);
    // a list narrowed to one device takes its total from the kept count (row-counts.ts keptOwnerTotalSql)
    expect((await t.get(`/api/dcim/interfaces/?device_id=${device.id}&limit=1`)).json().count).toBe(3);
    expect((await t.del(`/api/dcim/interfaces/${(ifaces.json() as Json[])[0]!.id}/`)).statusCode).toBe(204);
    expect((await counts(device)).interface_count).toBe(2);
    expect((await t.get(`/api/dcim/interfaces/?device_id=${device.id}&limit=1`)).json().count).toBe(2);
    await assertKeptMatchRows();
    // the device's components go with it (cascade): nothing of it stays counted
    expect((await t.del(`/api/dcim/devices/${device.id}/`)).statusCode).toBe(204);
    const left = await sql<{
      n: number;
    }>`select coalesce(sum(n), 0)::int as n from inv_kept_count where col = 'device_id' and owner = ${device.id}`.execute(
      t.db.kysely,
    );
    expect(left.rows[0]!.n).toBe(0);
    await assertKeptMatchRows();
  });

  it('follow a device moved to another site, a bulk update and deletes, and ignore a refused write', async () => {
    const [a, b] = [await makeSite(t), await makeSite(t)];
    const type = await makeDeviceType(t);
    const role = await makeRole(t);
    const made = await t.post(
      '/api/dcim/devices/',
      await Promise.all([1, 2, 3, 4].map(() => deviceAt(a, { device_type: type.id, role: role.id }))),
    );
    expect(made.statusCode).toBe(201);
    const [d1, d2, d3] = made.json() as Json[];
    expect((await t.patch(`/api/dcim/devices/${d1!.id}/`, { site: b.id })).statusCode).toBe(200);
    expect(
      (
        await t.patch('/api/dcim/devices/', [
          { id: d2!.id, site: b.id },
          { id: d3!.id, description: 'stays' },
        ])
      ).statusCode,
    ).toBe(200);
    expect((await siteCounts(a)).device_count).toBe(2);
    expect((await siteCounts(b)).device_count).toBe(2);
    // one bad item: nothing of the bulk create is stored or counted
    const refused = await t.post('/api/dcim/devices/', [
      await deviceAt(a, { device_type: type.id, role: role.id }),
      await deviceAt(a, { device_type: 999999, role: role.id }),
    ]);
    expect(refused.statusCode).toBe(400);
    expect((await siteCounts(a)).device_count).toBe(2);
    expect((await t.del(`/api/dcim/devices/${d1!.id}/`)).statusCode).toBe(204);
    expect((await siteCounts(b)).device_count).toBe(1);
    // a circuit deleted takes its terminations with it (cascade)
    const provider = await make(t, '/api/circuits/providers/', { name: uniq('prov'), slug: uniq('prov') });
    const ctype = await make(t, '/api/circuits/circuit-types/', { name: uniq('ct'), slug: uniq('ct') });
    const circuit = await make(t, '/api/circuits/circuits/', {
      cid: uniq('cid'),
      provider: provider.id,
      type: ctype.id,
    });
    await make(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', site: a.id });
    expect((await siteCounts(a)).circuit_count).toBe(1);
    expect((await t.del(`/api/circuits/circuits/${circuit.id}/`)).statusCode).toBe(204);
    expect(await siteCounts(a)).toMatchObject({ circuit_count: 0, device_count: 2 });
    expect((await t.get(`/api/dcim/device-types/${type.id}/`)).json().device_count).toBe(3);
    await assertKeptMatchRows();
  });

  it("are a tenant's, a VRF's, a cluster's, a platform's and a tag's (migration 0149), through bulk creates, moves and deletes", async () => {
    const [ta, tb] = [
      await make(t, '/api/tenancy/tenants/', { name: uniq('ten'), slug: uniq('ten') }),
      await make(t, '/api/tenancy/tenants/', { name: uniq('ten'), slug: uniq('ten') }),
    ];
    const [va, vb] = [
      await make(t, '/api/ipam/vrfs/', { name: uniq('vrf'), tenant: ta.id }),
      await make(t, '/api/ipam/vrfs/', { name: uniq('vrf') }),
    ];
    const ctype = await make(t, '/api/virtualization/cluster-types/', { name: uniq('ct'), slug: uniq('ct') });
    const cluster = await make(t, '/api/virtualization/clusters/', { name: uniq('cl'), type: ctype.id, tenant: ta.id });
    const site = await makeSite(t, { tenant: ta.id });
    const tag = await make(t, '/api/extras/tags/', { name: uniq('tag'), slug: uniq('tag') });
    const platform = await make(t, '/api/dcim/platforms/', { name: uniq('pf'), slug: uniq('pf') });
    const addresses = await t.post(
      '/api/ipam/ip-addresses/',
      [1, 2, 3].map((n) => ({ address: `10.149.0.${n}/24`, vrf: va.id, tenant: ta.id, tags: [tag.id] })),
    );
    expect(addresses.statusCode).toBe(201);
    const [a1, a2] = addresses.json() as Json[];
    await make(t, '/api/ipam/prefixes/', { prefix: '10.149.0.0/24', vrf: va.id, tenant: tb.id });
    const device = await makeDevice(t, {
      site: site.id,
      tenant: ta.id,
      cluster: cluster.id,
      platform: platform.id,
      tags: [tag.id],
    });
    await make(t, '/api/virtualization/virtual-machines/', { name: uniq('vm'), cluster: cluster.id, tenant: tb.id });
    // one address to the other VRF and tenant, one deleted
    expect((await t.patch(`/api/ipam/ip-addresses/${a1!.id}/`, { vrf: vb.id, tenant: tb.id })).statusCode).toBe(200);
    expect((await t.del(`/api/ipam/ip-addresses/${a2!.id}/`)).statusCode).toBe(204);
    const get = async (path: string) => (await t.get(`${path}?_=${uniq('n')}`)).json();
    expect(await get(`/api/ipam/vrfs/${va.id}/`)).toMatchObject({ ipaddress_count: 1, prefix_count: 1 });
    expect(await get(`/api/ipam/vrfs/${vb.id}/`)).toMatchObject({ ipaddress_count: 1, prefix_count: 0 });
    expect(await get(`/api/tenancy/tenants/${ta.id}/`)).toMatchObject({
      circuit_count: 0,
      device_count: 1,
      ipaddress_count: 1,
      prefix_count: 0,
      rack_count: 0,
      site_count: 1,
      virtualmachine_count: 0,
      vlan_count: 0,
      vrf_count: 1,
      cluster_count: 1,
    });
    expect(await get(`/api/tenancy/tenants/${tb.id}/`)).toMatchObject({
      ipaddress_count: 1,
      prefix_count: 1,
      virtualmachine_count: 1,
      site_count: 0,
    });
    expect(await get(`/api/virtualization/clusters/${cluster.id}/`)).toMatchObject({
      device_count: 1,
      virtualmachine_count: 1,
    });
    expect(await get(`/api/dcim/platforms/${platform.id}/`)).toMatchObject({
      device_count: 1,
      virtualmachine_count: 0,
    });
    // a tag's items: three addresses and a device, less the address deleted and the device's tags replaced
    expect((await get(`/api/extras/tags/${tag.id}/`)).tagged_items).toBe(3);
    expect((await t.patch(`/api/dcim/devices/${device.id}/`, { tags: [] })).statusCode).toBe(200);
    expect((await get(`/api/extras/tags/${tag.id}/`)).tagged_items).toBe(2);
    // read, not counted: a slot that disagrees with the table shows in the brief list too
    await sql`insert into inv_kept_count (tbl, col, owner, slot, n) values ('ipam_prefix', 'vrf_id', ${va.id}, 2147483002, 7)`.execute(
      t.db.kysely,
    );
    const brief = (await t.get(`/api/ipam/vrfs/?brief=1&id=${va.id}&_=${uniq('n')}`)).json();
    expect(brief.results[0].prefix_count).toBe(8);
    // a list narrowed by nothing but that owner takes its total from the same kept count...
    const owned = (await t.get(`/api/ipam/prefixes/?vrf_id=${va.id}&limit=1&_=${uniq('n')}`)).json();
    expect([owned.count, owned.results.length]).toEqual([8, 1]);
    // ...and any other filter, or two owners, counts the rows
    expect((await t.get(`/api/ipam/prefixes/?vrf_id=${va.id}&status=active`)).json().count).toBe(1);
    expect((await t.get(`/api/ipam/prefixes/?vrf_id=${va.id}&vrf_id=${vb.id}`)).json().count).toBe(1);
    await sql`delete from inv_kept_count where slot = 2147483002`.execute(t.db.kysely);
    await assertKeptMatchRows();
  });

  it('start again from zero after TRUNCATE', async () => {
    const site = await makeSite(t);
    await make(t, '/api/ipam/vlans/', { vid: 301, name: uniq('vlan'), site: site.id });
    await sql`truncate ipam_vlan cascade`.execute(t.db.kysely);
    expect((await siteCounts(site)).vlan_count).toBe(0);
    await make(t, '/api/ipam/vlans/', { vid: 302, name: uniq('vlan'), site: site.id });
    expect((await siteCounts(site)).vlan_count).toBe(1);
    await assertKeptMatchRows();
  });

  it('keep their sums when the slots of connections gone are folded into slot 0', async () => {
    const site = await makeSite(t);
    await makeRack(t, site);
    // a slot of a connection that is gone (no backend has this pid), and an owner whose count came to 0
    await sql`insert into inv_kept_count (tbl, col, owner, slot, n) values ('dcim_rack', 'site_id', ${site.id}, 2147483000, 5),
      ('dcim_rack', 'site_id', ${site.id}, 0, -5), ('dcim_rack', 'site_id', 2147480000, 0, 0)
      on conflict (tbl, col, owner, slot) do update set n = inv_kept_count.n + excluded.n`.execute(t.db.kysely);
    await foldGoneKeptCounts(t.db.kysely);
    const left = await sql`select 1 from inv_kept_count where slot = 2147483000 or owner = 2147480000`.execute(
      t.db.kysely,
    );
    expect(left.rows).toHaveLength(0);
    expect((await siteCounts(site)).rack_count).toBe(1);
    await assertKeptMatchRows();
  });
});
