/**
 * ASN ranges with available-asns (NetBox 3.5+), FHRP groups with their virtual addresses and
 * interface assignments (NetBox 3.4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, ids, type Json, make, makeDevice, makeInterface, makeRir } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
let base = 4_000_000_000;
const nextBlock = () => (base += 1000);

describe('ASN ranges', () => {
  it('needs start below end, counts the ASNs inside it and shows "name (start-end)"', async () => {
    const r = await makeRir(t);
    const start = nextBlock();
    const bad = await t.post('/api/ipam/asn-ranges/', {
      name: uniq('range'),
      slug: uniq('range'),
      rir: r.id,
      start,
      end: start,
    });
    expect(bad.json()).toEqual({ __all__: [`Starting ASN (${start}) must be lower than ending ASN (${start}).`] });
    const range = await make(t, '/api/ipam/asn-ranges/', {
      name: 'private',
      slug: uniq('range'),
      rir: r.id,
      start,
      end: start + 9,
    });
    expect(range).toMatchObject({
      display: `private (${start}-${start + 9})`,
      start,
      end: start + 9,
      asn_count: 0,
      rir: { id: r.id },
    });
    await make(t, '/api/ipam/asns/', { asn: start + 2, rir: r.id });
    await make(t, '/api/ipam/asns/', { asn: start + 10, rir: r.id });
    expect((await get(`/api/ipam/asn-ranges/${range.id}/`)).asn_count).toBe(1);
    expect(ids(await get(`/api/ipam/asn-ranges/?rir_id=${r.id}&start__gte=${start}`))).toEqual([range.id]);
  });

  it('lists the free ASNs of a range and allocates them, one or a list, until none is left (409)', async () => {
    const r = await makeRir(t);
    const start = nextBlock();
    const range = await make(t, '/api/ipam/asn-ranges/', {
      name: uniq('range'),
      slug: uniq('range'),
      rir: r.id,
      start,
      end: start + 4,
    });
    await make(t, '/api/ipam/asns/', { asn: start + 1, rir: r.id });
    const free = await get(`/api/ipam/asn-ranges/${range.id}/available-asns/`);
    expect(free.map((a: Json) => a.asn)).toEqual([start, start + 2, start + 3, start + 4]);
    expect(free[0].rir).toMatchObject({ id: r.id, name: r.name });
    expect((await get(`/api/ipam/asn-ranges/${range.id}/available-asns/?limit=2`)).map((a: Json) => a.asn)).toEqual([
      start,
      start + 2,
    ]);
    const one = await t.post(`/api/ipam/asn-ranges/${range.id}/available-asns/`, { description: 'first' });
    expect(one.statusCode).toBe(201);
    expect(one.json()).toMatchObject({ asn: start, description: 'first', rir: { id: r.id } });
    const two = await t.post(`/api/ipam/asn-ranges/${range.id}/available-asns/`, [{}, { description: 'b' }]);
    expect(two.statusCode).toBe(201);
    expect(two.json().map((a: Json) => a.asn)).toEqual([start + 2, start + 3]);
    const tooMany = await t.post(`/api/ipam/asn-ranges/${range.id}/available-asns/`, [{}, {}]);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toEqual({ detail: 'Insufficient resources are available to satisfy the request' });
    // nothing was allocated by the refused request
    expect((await get(`/api/ipam/asn-ranges/${range.id}/available-asns/`)).map((a: Json) => a.asn)).toEqual([
      start + 4,
    ]);
    expect((await t.get('/api/ipam/asn-ranges/999999999/available-asns/')).statusCode).toBe(404);
  });

  it('hands out different ASNs to concurrent allocations', async () => {
    const r = await makeRir(t);
    const start = nextBlock();
    const range = await make(t, '/api/ipam/asn-ranges/', {
      name: uniq('range'),
      slug: uniq('range'),
      rir: r.id,
      start,
      end: start + 19,
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.post(`/api/ipam/asn-ranges/${range.id}/available-asns/`, {})),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.json().asn)).size).toBe(8);
  });
});

describe('FHRP groups', () => {
  it('renders protocol and auth, "name protocol: id" as display, and the virtual addresses', async () => {
    const g = await make(t, '/api/ipam/fhrp-groups/', {
      name: 'gw',
      protocol: 'vrrp2',
      group_id: 10,
      auth_type: 'md5',
      auth_key: 'k',
    });
    expect(g).toMatchObject({
      display: 'gw VRRPv2: 10',
      protocol: { value: 'vrrp2', label: 'VRRPv2' },
      auth_type: { value: 'md5', label: 'MD5' },
      ip_addresses: [],
    });
    const vip = await make(t, '/api/ipam/ip-addresses/', {
      address: '10.77.0.1/24',
      role: 'vrrp',
      assigned_object_type: 'ipam.fhrpgroup',
      assigned_object_id: g.id,
    });
    expect(vip.assigned_object).toMatchObject({ id: g.id, display: 'gw VRRPv2: 10' });
    const body = await get(`/api/ipam/fhrp-groups/${g.id}/`);
    expect(body.ip_addresses.map((a: Json) => a.address)).toEqual(['10.77.0.1/24']);
    const brief = await get(`/api/ipam/fhrp-groups/${g.id}/?brief=1`);
    expect(Object.keys(brief).sort()).toEqual(['display', 'group_id', 'id', 'protocol', 'url']);
    expect(brief.protocol).toEqual({ value: 'vrrp2', label: 'VRRPv2' });
    // related_ip: the groups serving the subnet of an address
    const host = await make(t, '/api/ipam/ip-addresses/', { address: '10.77.0.20/24' });
    const elsewhere = await make(t, '/api/ipam/ip-addresses/', { address: '10.78.0.20/24' });
    expect(ids(await get(`/api/ipam/fhrp-groups/?related_ip=${host.id}`))).toEqual([g.id]);
    expect(ids(await get(`/api/ipam/fhrp-groups/?related_ip=${elsewhere.id}`))).toEqual([]);
    expect((await t.post('/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 40000 })).json()).toHaveProperty(
      'group_id',
    );
  });

  it('assigns interfaces with a priority, once per group, counts them on the interface, and goes with the interface', async () => {
    const g = await make(t, '/api/ipam/fhrp-groups/', { protocol: 'hsrp', group_id: 1 });
    const d = await makeDevice(t);
    const [a, b] = [await makeInterface(t, d, { name: 'Vlan10' }), await makeInterface(t, d, { name: 'Vlan20' })];
    const asg = await make(t, '/api/ipam/fhrp-group-assignments/', {
      group: g.id,
      interface_type: 'dcim.interface',
      interface_id: a.id,
      priority: 120,
    });
    expect(asg).toMatchObject({
      display: 'Vlan10: HSRP: 1 (120)',
      interface: { id: a.id, name: 'Vlan10' },
      group: { id: g.id },
      priority: 120,
    });
    // brief and `fields=` outputs lack the nested interface (or group): the display is the same
    expect((await get(`/api/ipam/fhrp-group-assignments/?id=${asg.id}&brief=1`)).results[0].display).toBe(
      'Vlan10: HSRP: 1 (120)',
    );
    expect((await get(`/api/ipam/fhrp-group-assignments/?id=${asg.id}&fields=id,display`)).results[0].display).toBe(
      'Vlan10: HSRP: 1 (120)',
    );
    const twice = await t.post('/api/ipam/fhrp-group-assignments/', {
      group: g.id,
      interface_type: 'dcim.interface',
      interface_id: a.id,
      priority: 1,
    });
    expect(twice.json()).toEqual({
      __all__: ['FHRP group assignment with this Interface type, Interface id and Group already exists.'],
    });
    const missing = await t.post('/api/ipam/fhrp-group-assignments/', {
      group: g.id,
      interface_type: 'dcim.interface',
      interface_id: 99999999,
      priority: 1,
    });
    expect(missing.json()).toEqual({ interface_id: ['Related object not found using the provided value: 99999999.'] });
    const low = await make(t, '/api/ipam/fhrp-group-assignments/', {
      group: g.id,
      interface_type: 'dcim.interface',
      interface_id: b.id,
      priority: 90,
    });
    expect(ids(await get(`/api/ipam/fhrp-group-assignments/?device_id=${d.id}`))).toEqual([asg.id, low.id]);
    expect(ids(await get(`/api/ipam/fhrp-group-assignments/?device=${d.name}&priority__lt=100`))).toEqual([low.id]);
    expect((await get(`/api/dcim/interfaces/${a.id}/`)).count_fhrp_groups).toBe(1);
    expect((await t.del(`/api/dcim/interfaces/${a.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/ipam/fhrp-group-assignments/${asg.id}/`)).statusCode).toBe(404);
    // deleting the group deletes its assignments
    expect((await t.del(`/api/ipam/fhrp-groups/${g.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/ipam/fhrp-group-assignments/${low.id}/`)).statusCode).toBe(404);
  });
});
