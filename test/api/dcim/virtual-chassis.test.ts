/**
 * The master named when a virtual chassis is created joins it at position 1 (NetBox 3.4 signal)
 * through the one write path: the device change is validated and recorded with the request's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, grant, makeUser, type Json, make, makeDevice, makeInterface } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const changesOf = async (requestId: string) =>
  (await t.get(`/api/extras/object-changes/?request_id=${requestId}&ordering=id&limit=0`)).json().results as Json[];

describe('POST /api/dcim/virtual-chassis/ with a master', () => {
  it('makes the master a member at position 1, with a change record of the device in the same request', async () => {
    const device = await makeDevice(t);
    const res = await t.post('/api/dcim/virtual-chassis/', { name: uniq('vc'), master: device.id });
    expect(res.statusCode, res.body).toBe(201);
    const vc = res.json();
    expect(vc.member_count).toBe(1);
    const member = (await t.get(`/api/dcim/devices/${device.id}/`)).json();
    expect(member.virtual_chassis).toMatchObject({ id: vc.id });
    expect(member.vc_position).toBe(1);
    const changes = await changesOf(res.headers['x-request-id'] as string);
    const byType = Object.fromEntries(changes.map((c) => [c.changed_object_type, c]));
    expect(Object.keys(byType).sort()).toEqual(['dcim.device', 'dcim.virtualchassis']);
    expect(byType['dcim.device']!.action.value).toBe('update');
    expect(byType['dcim.device']!.changed_object_id).toBe(device.id);
    expect(byType['dcim.device']!.prechange_data).toMatchObject({ virtual_chassis: null, vc_position: null });
    expect(byType['dcim.device']!.postchange_data).toMatchObject({ virtual_chassis: vc.id, vc_position: 1 });
  });

  it('needs no permission to change the device (NetBox: the signal saves it)', async () => {
    const device = await makeDevice(t);
    const user = await makeUser(t);
    await grant(t, { object_types: ['dcim.virtualchassis', 'dcim.device'], actions: ['view'], users: [user.id] });
    await grant(t, { object_types: ['dcim.virtualchassis'], actions: ['add'], users: [user.id] });
    const res = await t.post('/api/dcim/virtual-chassis/', { name: uniq('vc'), master: device.id }, user.token);
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.get(`/api/dcim/devices/${device.id}/`)).json().vc_position).toBe(1);
    // the user still cannot change devices themselves
    expect((await t.patch(`/api/dcim/devices/${device.id}/`, { vc_position: 2 }, user.token)).statusCode).toBe(403);
  });
});

/**
 * A chassis of a master and a member at one site, a device outside it; each with a data interface
 * and the member with a management interface too.
 */
async function chassis() {
  const master = await makeDevice(t);
  const site = master.site.id;
  const vc = (await t.post('/api/dcim/virtual-chassis/', { name: uniq('vc'), master: master.id })).json();
  const member = await makeDevice(t, { site, virtual_chassis: vc.id, vc_position: 2 });
  const outsider = await makeDevice(t, { site });
  const masterEth = await makeInterface(t, master);
  const memberEth = await makeInterface(t, member);
  const memberMgmt = await makeInterface(t, member, { mgmt_only: true });
  const outsiderEth = await makeInterface(t, outsider);
  return { vc, master, member, outsider, masterEth, memberEth, memberMgmt, outsiderEth };
}

const interfaceIds = async (query: string) => {
  const res = await t.get(`/api/dcim/interfaces/?${query}&limit=0&ordering=id`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as Json[]).map((i) => i.id).sort((a, b) => a - b);
};
const sorted = (...xs: Json[]) => xs.map((x) => x.id).sort((a, b) => a - b);

describe('interfaces of a virtual chassis (NetBox 3.4 InterfaceFilterSet)', () => {
  it("device=<master> includes the members' non-management interfaces; device=<member> only its own", async () => {
    const c = await chassis();
    expect(await interfaceIds(`device=${encodeURIComponent(c.master.name)}`)).toEqual(sorted(c.masterEth, c.memberEth));
    expect(await interfaceIds(`device=${encodeURIComponent(c.member.name)}`)).toEqual(
      sorted(c.memberEth, c.memberMgmt),
    );
    expect(await interfaceIds(`device=${encodeURIComponent(c.outsider.name)}`)).toEqual(sorted(c.outsiderEth));
  });

  it("device_id=<any member> includes the other members' non-management interfaces", async () => {
    const c = await chassis();
    expect(await interfaceIds(`device_id=${c.master.id}`)).toEqual(sorted(c.masterEth, c.memberEth));
    expect(await interfaceIds(`device_id=${c.member.id}`)).toEqual(sorted(c.masterEth, c.memberEth, c.memberMgmt));
    expect(await interfaceIds(`device_id=${c.outsider.id}`)).toEqual(sorted(c.outsiderEth));
    expect(await interfaceIds(`device_id=${c.outsider.id}&device_id=${c.master.id}`)).toEqual(
      sorted(c.masterEth, c.memberEth, c.outsiderEth),
    );
    // __n leaves out the same set
    const rest = await interfaceIds(
      `device_id__n=${c.master.id}&id=${c.masterEth.id}&id=${c.memberEth.id}&id=${c.memberMgmt.id}`,
    );
    expect(rest).toEqual(sorted(c.memberMgmt));
  });

  it('virtual_chassis_member(_id) does the same for any member, by name or id', async () => {
    const c = await chassis();
    expect(await interfaceIds(`virtual_chassis_member=${encodeURIComponent(c.member.name)}`)).toEqual(
      sorted(c.masterEth, c.memberEth, c.memberMgmt),
    );
    expect(await interfaceIds(`virtual_chassis_member_id=${c.master.id}`)).toEqual(sorted(c.masterEth, c.memberEth));
    expect(await interfaceIds(`virtual_chassis=${encodeURIComponent(c.vc.name)}`)).toEqual(
      sorted(c.masterEth, c.memberEth, c.memberMgmt),
    );
    const bad = await t.get('/api/dcim/interfaces/?virtual_chassis_member_id=99999999');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      virtual_chassis_member_id: ['Select a valid choice. 99999999 is not one of the available choices.'],
    });
  });

  it('looks one device up with =, whose plan PostgreSQL keeps, and several with = any()', async () => {
    const c = await chassis();
    const lookups = async (query: string) => {
      const seen: Array<{ sql: string; parameters: readonly unknown[] }> = [];
      const stop = t.db.observeStatements((_ms, _err, q) => {
        if (q.sql.includes(' as peers')) seen.push(q);
      });
      try {
        expect((await t.get(`/api/dcim/interfaces/?${query}`)).statusCode).toBe(200);
      } finally {
        stop();
      }
      expect(seen, query).toHaveLength(1);
      return seen[0]!;
    };
    expect(await lookups(`device_id=${c.member.id}`)).toMatchObject({
      sql: expect.stringContaining('d."id" = $1::bigint'),
      parameters: [String(c.member.id)],
    });
    expect(await lookups(`device=${encodeURIComponent(c.master.name)}`)).toMatchObject({
      sql: expect.stringContaining('d."name" = $1::text'),
      parameters: [c.master.name],
    });
    expect((await lookups(`device_id=${c.member.id}&device_id=${c.outsider.id}`)).sql).toContain(
      'd."id" = any($1::bigint[])',
    );
  });

  it("a master's addresses (ip-addresses device_id) include those on members' non-management interfaces", async () => {
    const c = await chassis();
    const on = (i: Json, address: string) =>
      make(t, '/api/ipam/ip-addresses/', { address, assigned_object_type: 'dcim.interface', assigned_object_id: i.id });
    const a = await on(c.masterEth, '198.51.100.1/24');
    const b = await on(c.memberEth, '198.51.100.2/24');
    await on(c.memberMgmt, '198.51.100.3/24');
    const ips = async (q: string) =>
      ((await t.get(`/api/ipam/ip-addresses/?${q}&limit=0`)).json().results as Json[])
        .map((r) => r.id)
        .sort((x, y) => x - y);
    expect(await ips(`device_id=${c.master.id}`)).toEqual(sorted(a, b));
    expect(await ips(`device=${encodeURIComponent(c.master.name)}`)).toEqual(sorted(a, b));
    expect((await ips(`device_id=${c.member.id}`)).length).toBe(2);
  });
});

describe('primary addresses in a virtual chassis (NetBox 3.4 Device.clean)', () => {
  it("lets a member's primary IP sit on another member's data interface, not on its management interface", async () => {
    const c = await chassis();
    const on = (i: Json, address: string) =>
      make(t, '/api/ipam/ip-addresses/', { address, assigned_object_type: 'dcim.interface', assigned_object_id: i.id });
    const data = await on(c.memberEth, '203.0.113.2/24');
    const mgmt = await on(c.memberMgmt, '203.0.113.3/24');
    const outside = await on(c.outsiderEth, '203.0.113.4/24');
    const ok = await t.patch(`/api/dcim/devices/${c.master.id}/`, { primary_ip4: data.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().primary_ip4.id).toBe(data.id);
    const viaMgmt = await t.patch(`/api/dcim/devices/${c.master.id}/`, { primary_ip4: mgmt.id });
    expect(viaMgmt.json()).toEqual({
      primary_ip4: ['The specified IP address (203.0.113.3/24) is not assigned to this device.'],
    });
    expect((await t.patch(`/api/dcim/devices/${c.master.id}/`, { primary_ip4: outside.id })).statusCode).toBe(400);
    // a member may use a master's data interface address too (if_master=False)
    const masterAddr = await on(c.masterEth, '203.0.113.1/24');
    expect((await t.patch(`/api/dcim/devices/${c.member.id}/`, { primary_ip4: masterAddr.id })).statusCode).toBe(200);
    // the outsider may not
    expect((await t.patch(`/api/dcim/devices/${c.outsider.id}/`, { primary_ip4: data.id })).statusCode).toBe(400);
  });
});
