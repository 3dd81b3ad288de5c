import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
let vrf: { id: number; rd: string; display: string };
const addrs = (res: { json(): { results: Array<{ address: string }> } }) => res.json().results.map((r) => r.address);

beforeAll(async () => {
  t = await makeTestApp();
  vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf'), rd: '65100:1' })).json();
  const res = await t.post('/api/ipam/ip-addresses/', [
    { address: '10.0.0.1/24', dns_name: 'Router.Example.NET' },
    { address: '10.0.0.2' },
    { address: '10.0.1.5/16', status: 'reserved' },
    { address: '10.0.0.1/24', vrf: vrf.id },
    { address: '2001:DB8:0::1' },
  ]);
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => t.close());

describe('IP address representation', () => {
  it('matches the spec field table', async () => {
    const body = (await t.get('/api/ipam/ip-addresses/?address=10.0.0.1/24&vrf_id=null')).json().results[0];
    expect(Object.keys(body).sort()).toEqual([
      'address',
      'assigned_object',
      'assigned_object_id',
      'assigned_object_type',
      'comments',
      'created',
      'custom_fields',
      'description',
      'display',
      'dns_name',
      'family',
      'id',
      'last_updated',
      'nat_inside',
      'nat_outside',
      'role',
      'status',
      'tags',
      'tenant',
      'url',
      'vrf',
    ]);
    expect(body).toMatchObject({
      family: { value: 4, label: 'IPv4' },
      status: { value: 'active', label: 'Active' },
      role: null,
      nat_outside: null,
    });
    expect(body.dns_name).toBe('router.example.net');
    expect(body.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.last_updated).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
  });

  it('adds /32 or /128 when the mask is missing and compresses IPv6, in the change log too', async () => {
    expect(addrs(await t.get('/api/ipam/ip-addresses/?family=6'))).toEqual(['2001:db8::1/128']);
    const res = await t.post('/api/ipam/ip-addresses/', { address: '192.0.2.1' });
    expect(res.json()).toMatchObject({ address: '192.0.2.1/32', display: '192.0.2.1/32' });
    const brief = (await t.get(`/api/ipam/ip-addresses/${res.json().id}/?brief=1`)).json();
    expect(brief).toEqual({
      id: res.json().id,
      url: res.json().url,
      display: '192.0.2.1/32',
      family: 4,
      address: '192.0.2.1/32',
    });
    const change = (await t.get(`/api/extras/object-changes/?request_id=${res.headers['x-request-id']}`)).json()
      .results[0];
    expect(change.postchange_data.address).toBe('192.0.2.1/32');
    expect(change.changed_object).toMatchObject({ address: '192.0.2.1/32', family: 4 });
  });

  it('renders nat_inside and nat_outside as one nested address each', async () => {
    const inside = (await t.post('/api/ipam/ip-addresses/', { address: '192.168.0.10/24' })).json();
    const outside = (
      await t.post('/api/ipam/ip-addresses/', { address: '203.0.113.10/32', nat_inside: inside.id })
    ).json();
    const nested = (o: { id: number; url: string }, address: string) => ({
      id: o.id,
      url: o.url,
      display: address,
      family: 4,
      address,
    });
    expect(outside.nat_inside).toEqual(nested(inside, '192.168.0.10/24'));
    expect(outside.nat_outside).toBeNull();
    expect((await t.get(`/api/ipam/ip-addresses/${inside.id}/`)).json().nat_outside).toEqual(
      nested(outside, '203.0.113.10/32'),
    );
    await t.del(`/api/ipam/ip-addresses/${inside.id}/`);
    expect((await t.get(`/api/ipam/ip-addresses/${outside.id}/`)).json().nat_inside).toBeNull();
  });

  it('validates address, status and DNS name', async () => {
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.300/24' })).json()).toEqual({
      address: ['Invalid IP address format: 10.0.0.300/24'],
    });
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.1/0' })).json()).toEqual({
      address: ['Cannot create IP address with /0 mask.'],
    });
    const padded = (await t.post('/api/ipam/ip-addresses/', { address: ' 198.51.100.77/024 ' })).json();
    expect(padded.address).toBe('198.51.100.77/24');
    await t.del(`/api/ipam/ip-addresses/${padded.id}/`);
    expect((await t.post('/api/ipam/ip-addresses/', { status: 'active' })).json()).toEqual({
      address: ['This field is required.'],
    });
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.9.9.9/24', status: 'slaac' })).json()).toEqual({
      status: ['Only IPv6 addresses can be assigned SLAAC status'],
    });
    expect(
      Object.keys((await t.post('/api/ipam/ip-addresses/', { address: '10.9.9.9/24', dns_name: 'bad name!' })).json()),
    ).toEqual(['dns_name']);
  });
});

describe('IP address uniqueness', () => {
  it('refuses a duplicate host (any mask) in an enforcing VRF, tolerates shared roles', async () => {
    const dup = await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.1/25', vrf: vrf.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ address: [`Duplicate IP address found in VRF ${vrf.display}: 10.0.0.1/24`] });
    const a = await t.post('/api/ipam/ip-addresses/', { address: '10.5.5.5/24', vrf: vrf.id, role: 'vrrp' });
    expect(a.statusCode).toBe(201);
    expect(
      (await t.post('/api/ipam/ip-addresses/', { address: '10.5.5.5/24', vrf: vrf.id, role: 'hsrp' })).statusCode,
    ).toBe(201);
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.5.5.5/24', vrf: vrf.id })).statusCode).toBe(400);
  });

  it('allows global duplicates while ENFORCE_GLOBAL_UNIQUE is off', async () => {
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.2/32' })).statusCode).toBe(201);
  });
});

describe('IP address assignment (generic relation)', () => {
  it('refuses types not yet installed or not allowed, and half a pair', async () => {
    // until dcim registers interfaces the type is unknown; afterwards the missing object is named
    const installed = (await t.get('/api/dcim/interfaces/')).statusCode === 200;
    const type = await t.post('/api/ipam/ip-addresses/', {
      address: '10.7.0.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 999999,
    });
    expect(type.json()).toEqual(
      installed
        ? { assigned_object_id: ['Related object not found using the provided value: 999999.'] }
        : { assigned_object_type: ['Invalid content type: dcim.interface'] },
    );
    const wrong = await t.post('/api/ipam/ip-addresses/', {
      address: '10.7.0.1/24',
      assigned_object_type: 'dcim.site',
      assigned_object_id: 1,
    });
    expect(wrong.json()).toEqual({ assigned_object_type: ['Invalid content type: dcim.site'] });
    const half = await t.post('/api/ipam/ip-addresses/', { address: '10.7.0.1/24', assigned_object_id: 1 });
    expect(half.json()).toEqual({ assigned_object_type: ['This field cannot be null.'] });
    const other = await t.post('/api/ipam/ip-addresses/', {
      address: '10.7.0.1/24',
      assigned_object_type: 'virtualization.vminterface',
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().assigned_object_id ?? other.json().assigned_object_type).toBeDefined();
    expect(
      (await t.post('/api/ipam/ip-addresses/', { address: '10.7.0.1/24', assigned_object_type: 'dcim.site' })).json(),
    ).toEqual({
      assigned_object_type: ['Invalid content type: dcim.site'],
      assigned_object_id: ['This field cannot be null.'],
    });
  });
});

describe('IP address filters', () => {
  const list = (q: string) => t.get(`/api/ipam/ip-addresses/?family=4&${q}&ordering=address`);

  it('parent (host inside, repeatable), address with or without mask, mask_length', async () => {
    expect(addrs(await list('parent=10.0.0.0/24&vrf_id=null'))).toEqual(['10.0.0.1/24', '10.0.0.2/32', '10.0.0.2/32']);
    expect(addrs(await list('parent=10.0.1.0/24&parent=192.0.2.0/24'))).toEqual(['10.0.1.5/16', '192.0.2.1/32']);
    expect(addrs(await list('address=10.0.0.1&vrf_id=null'))).toEqual(['10.0.0.1/24']);
    expect(addrs(await list('address=10.0.0.1/25'))).toEqual([]);
    expect(addrs(await list('mask_length=16'))).toEqual(['10.0.1.5/16']);
    expect((await list('mask_length__gte=32')).json().count).toBeGreaterThanOrEqual(3);
  });

  // NetBox answers an empty list; issue 9 asks for a 400 naming the parameter
  it('answers invalid network values with 400 naming the parameter', async () => {
    for (const q of ['parent=nope', 'address=10.0.0.256']) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toEqual({ [q.split('=')[0]!]: ['Enter a valid IPv4 or IPv6 address or network.'] });
    }
  });

  it('vrf by RD and id, present_in_vrf_id, status, dns_name, q', async () => {
    expect(addrs(await list(`vrf=${vrf.rd}&address=10.0.0.1`))).toEqual(['10.0.0.1/24']);
    expect(addrs(await list(`present_in_vrf_id=${vrf.id}&address=10.0.0.1`))).toEqual(['10.0.0.1/24']);
    expect(addrs(await list('status=reserved'))).toEqual(['10.0.1.5/16']);
    expect(addrs(await list('dns_name__ic=router'))).toEqual(['10.0.0.1/24']);
    expect(addrs(await list('q=10.0.1.'))).toEqual(['10.0.1.5/16']);
  });

  it('assigned_to_interface, and the interface filters before dcim and virtualization exist', async () => {
    expect((await list('assigned_to_interface=true')).json().count).toBe(0);
    expect((await list('assigned_to_interface=false')).json().count).toBe((await list('')).json().count);
    for (const q of ['device_id=1', 'device=r1', 'virtual_machine_id=1', 'virtual_machine=vm1']) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(200);
      expect(res.json().count, q).toBe(0);
    }
    expect((await list('device_id=x')).statusCode).toBe(400);
    const iface = await list('interface_id=1');
    expect(iface.statusCode).toBe(400);
    expect(iface.json()).toEqual({ interface_id: ['Select a valid choice. 1 is not one of the available choices.'] });
  });
});
