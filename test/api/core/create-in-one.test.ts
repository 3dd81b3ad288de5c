/**
 * A create written as one statement (core/crud/create-in-one.ts): PostgreSQL writes the change
 * record from the inserted row, and it must be the record changelog.ts writes from the same row
 * (snapshot, object_repr, related object), for every model that path writes. The snapshot SQL is
 * checked against changelog.ts's snapshot on stored rows of every such model, and end to end on
 * creates through the API; a create it does not take (tags) still logs as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { RequestContext } from '../../../src/core/context.js';
import type { ModelDef } from '../../../src/core/model/types.js';
import { snapshot } from '../../../src/core/crud/changelog.js';
import { planOf } from '../../../src/core/crud/create-in-one.js';
import { fewestStatements } from '../../helpers/statements.js';
import { uniq, make, makeDevice, makeInterface, makeRack, makeSite } from '../../factories/index.js';

let t: TestApp;
let rc: RequestContext;
let host = 0;
/** a new host address in 10.78.0.0/16 */
const nextAddress = () => `10.78.${Math.floor(++host / 250)}.${(host % 250) + 1}/32`;
beforeAll(async () => {
  t = await makeTestApp();
  rc = {
    app: t.app.inventory,
    q: t.db.kysely,
    user: null,
    token: null,
    viaSession: false,
    requestId: '',
    baseUrl: 'http://h',
    permissions: null,
    clientIp: '',
    dataVersion: null,
  } as RequestContext;
  // rows of many models, with their optional columns set where a factory sets them
  const site = await makeSite(t, { description: 'a site', latitude: -33.8688, longitude: 151.2093 });
  await makeSite(t, { latitude: 0.000001, longitude: 90 });
  const rack = await makeRack(t, site);
  const device = await makeDevice(t, { site: site.id, rack: rack.id, position: 3, face: 'front', serial: 'SN1' });
  const iface = await makeInterface(t, device, { mtu: 9000, mac_address: '00:1a:2b:3c:4d:5e', description: 'uplink' });
  await makeInterface(t, device, {
    type: 'ieee802.11ac',
    description: 'radio',
    rf_role: 'ap',
    rf_channel: '5g-36-5180-20',
    rf_channel_frequency: 5180,
    rf_channel_width: 20,
  });
  const tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('tenant'), slug: uniq('tenant') });
  const vrf = await make(t, '/api/ipam/vrfs/', { name: uniq('vrf'), rd: '65000:1', tenant: tenant.id });
  const group = await make(t, '/api/ipam/vlan-groups/', {
    name: uniq('vg'),
    slug: uniq('vg'),
    scope_type: 'dcim.site',
    scope_id: site.id,
  });
  const vlan = await make(t, '/api/ipam/vlans/', { vid: 100, name: uniq('vlan'), group: group.id, tenant: tenant.id });
  await make(t, '/api/ipam/prefixes/', {
    prefix: '10.77.0.0/16',
    vrf: vrf.id,
    site: site.id,
    vlan: vlan.id,
    custom_fields: {},
  });
  await make(t, '/api/ipam/ip-addresses/', {
    address: '2001:DB8::1/64',
    vrf: vrf.id,
    dns_name: 'h.example.net',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: iface.id,
  });
  await make(t, '/api/ipam/ip-addresses/', { address: '10.77.0.1/32', status: 'reserved', comments: 'x' });
});
afterAll(async () => {
  await t.close();
});

/** what changelog.ts writes for a stored row: its snapshot as stored in jsonb (a JSON round trip) */
async function expectedSnapshot(model: ModelDef, row: Record<string, unknown>): Promise<unknown> {
  const snaps = await snapshot(rc, model, [row]);
  return JSON.parse(JSON.stringify(snaps.get(Number(row.id))));
}

describe('the change record a create writes in one statement', () => {
  it('takes the models a POST of plain objects writes most', () => {
    const registry = t.app.inventory.registry;
    for (const name of [
      'ipam.ipaddress',
      'ipam.prefix',
      'dcim.interface',
      'dcim.site',
      'tenancy.tenant',
      'dcim.manufacturer',
    ]) {
      expect(planOf(registry.get(name)), name).not.toBeNull();
    }
    // a VLAN's display joins its name and VID: object_repr is not one column's text
    expect(planOf(registry.get('ipam.vlan'))).toBeNull();
  });

  it('builds the snapshot changelog.ts builds, on the stored rows of every model it writes', async () => {
    let compared = 0;
    const models = new Set<string>();
    for (const model of t.app.inventory.registry.all()) {
      const plan = planOf(model);
      if (!plan) continue;
      const rows = (
        await sql<Record<string, unknown>>`select * from ${sql.table(model.table)} order by id limit 5`.execute(
          t.db.kysely,
        )
      ).rows;
      for (const row of rows) {
        const {
          rows: [built],
        } = await sql<{
          snap: unknown;
          repr: string;
        }>`select ${plan.snapshot} as snap, left(${sql.ref(`r.${plan.display}`)}::text, 200) as repr
          from ${sql.table(model.table)} as r where r.id = ${row.id}`.execute(t.db.kysely);
        expect(built!.snap, `${model.name} ${row.id}`).toEqual(await expectedSnapshot(model, row));
        if (row[plan.display]) expect(built!.repr, `${model.name} ${row.id}`).toBe(model.display(row).slice(0, 200));
        compared++;
        models.add(model.name);
      }
    }
    expect(models).toContain('ipam.ipaddress');
    expect(models).toContain('dcim.interface');
    expect(models).toContain('dcim.site');
    expect(compared).toBeGreaterThanOrEqual(10);
  });

  it('logs a create through the API as changelog.ts would, in begin, one statement and commit', async () => {
    const model = t.app.inventory.registry.get('ipam.ipaddress');
    let id = 0;
    const { n } = await fewestStatements(t.db, async () => {
      const res = await t.post('/api/ipam/ip-addresses/', {
        address: nextAddress(),
        dns_name: 'a.example.net',
        description: 'one statement',
      });
      expect(res.statusCode, res.body).toBe(201);
      id = res.json().id;
    });
    expect(n).toBe(3);
    const row = (await sql<Record<string, unknown>>`select * from ipam_ipaddress where id = ${id}`.execute(t.db.kysely))
      .rows[0]!;
    const change = (
      await t.get(`/api/extras/object-changes/?changed_object_type=ipam.ipaddress&changed_object_id=${id}`)
    ).json().results[0];
    expect(change.action.value).toBe('create');
    expect(change.object_repr).toBe(model.display(row));
    expect(change.prechange_data).toBeNull();
    expect(change.postchange_data).toEqual(await expectedSnapshot(model, row));
  });

  it('writes a bulk create and its change records in input order, the related object named', async () => {
    const device = await makeDevice(t);
    const names = ['eth9', 'eth1', 'eth5'];
    const res = await t.post(
      '/api/dcim/interfaces/',
      names.map((name) => ({ device: device.id, name, type: '1000base-t' })),
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Array<{ id: number; name: string }>;
    expect(created.map((i) => i.name)).toEqual(names);
    expect(created.map((i) => i.id)).toEqual([...created.map((i) => i.id)].sort((a, b) => a - b));
    const changes = (
      await t.get(
        `/api/extras/object-changes/?changed_object_type=dcim.interface&request_id=${(await t.get(`/api/extras/object-changes/?changed_object_type=dcim.interface&changed_object_id=${created[0]!.id}`)).json().results[0].request_id}&ordering=id`,
      )
    ).json().results;
    expect(changes.map((c: { changed_object_id: number }) => c.changed_object_id)).toEqual(created.map((i) => i.id));
    expect(changes.map((c: { object_repr: string }) => c.object_repr)).toEqual(names);
    for (const c of changes) {
      expect(c.related_object_type).toBe('dcim.device');
      expect(c.related_object_id).toBe(device.id);
    }
  });

  it('is not taken for a create with tags, which logs them as before', async () => {
    const tag = await make(t, '/api/extras/tags/', { name: uniq('tag'), slug: uniq('tag') });
    const { n, result: id } = await fewestStatements(t.db, async () => {
      const res = await t.post('/api/ipam/ip-addresses/', { address: nextAddress(), tags: [tag.id] });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    });
    expect(n).toBeGreaterThan(3);
    const change = (
      await t.get(`/api/extras/object-changes/?changed_object_type=ipam.ipaddress&changed_object_id=${id}`)
    ).json().results[0];
    expect(change.postchange_data.tags).toEqual([tag.name]);
  });

  it('writes neither row nor change record when the statement fails, and its connection serves the next writes', async () => {
    const counts = async () =>
      (
        await sql<{ rows: string; changes: string }>`select (select count(*) from ipam_ipaddress) as rows,
      (select count(*) from extras_objectchange) as changes`.execute(t.db.kysely)
      ).rows[0];
    // a refusal only PostgreSQL makes, after every check of the service passed
    await sql`alter table ipam_ipaddress add constraint create_in_one_refuses check (description <> 'refuse me')`.execute(
      t.db.kysely,
    );
    try {
      const before = await counts();
      for (let i = 0; i < 6; i++) {
        const bad = await t.post('/api/ipam/ip-addresses/', { address: nextAddress(), description: 'refuse me' });
        expect(bad.statusCode, bad.body).toBeGreaterThanOrEqual(400);
      }
      expect(await counts()).toEqual(before);
      for (let i = 0; i < 8; i++) {
        const ok = await t.post('/api/ipam/ip-addresses/', { address: nextAddress() });
        expect(ok.statusCode, ok.body).toBe(201);
        const logged = await t.get(
          `/api/extras/object-changes/?changed_object_type=ipam.ipaddress&changed_object_id=${ok.json().id}`,
        );
        expect(logged.json().count).toBe(1);
      }
    } finally {
      await sql`alter table ipam_ipaddress drop constraint create_in_one_refuses`.execute(t.db.kysely);
    }
  });
});
