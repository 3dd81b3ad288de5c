import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
let vrf: { id: number };
beforeAll(async () => {
  t = await makeTestApp();
  vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf') })).json();
});
afterAll(async () => t.close());

const newPrefix = async (data: Record<string, unknown>) => {
  const res = await t.post('/api/ipam/prefixes/', data);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; prefix: string };
};

describe('available-prefixes', () => {
  it('lists the free space of the same VRF as CIDR blocks with the VRF nested', async () => {
    const parent = await newPrefix({ prefix: '10.10.0.0/22', vrf: vrf.id });
    await newPrefix({ prefix: '10.10.1.0/24', vrf: vrf.id });
    await newPrefix({ prefix: '10.10.2.0/24' }); // another VRF: not in the way
    const res = await t.get(`/api/ipam/prefixes/${parent.id}/available-prefixes/`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((p: { prefix: string }) => p.prefix)).toEqual(['10.10.0.0/24', '10.10.2.0/23']);
    expect(body[0]).toEqual({
      family: 4,
      prefix: '10.10.0.0/24',
      vrf: expect.objectContaining({ id: vrf.id, name: expect.any(String) }),
    });
  });

  it('allocates the first block that fits, one object or a list, copying the VRF', async () => {
    const parent = await newPrefix({ prefix: '10.20.0.0/24', vrf: vrf.id });
    const one = await t.post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, {
      prefix_length: 26,
      description: 'first',
      status: 'reserved',
    });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toMatchObject({
      prefix: '10.20.0.0/26',
      vrf: { id: vrf.id },
      description: 'first',
      status: { value: 'reserved' },
    });
    const many = await t.post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, [
      { prefix_length: 25 },
      { prefix_length: 26 },
    ]);
    expect(many.statusCode).toBe(201);
    expect(many.json().map((p: { prefix: string }) => p.prefix)).toEqual(['10.20.0.128/25', '10.20.0.64/26']);
    const changes = (await t.get(`/api/extras/object-changes/?request_id=${many.headers['x-request-id']}`)).json();
    expect(changes.count).toBe(2);
    const full = await t.post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 30 });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({
      detail: 'Insufficient space is available to accommodate the requested prefix size(s)',
    });
  });

  it('validates prefix_length', async () => {
    const parent = await newPrefix({ prefix: '10.30.0.0/24' });
    const url = `/api/ipam/prefixes/${parent.id}/available-prefixes/`;
    expect((await t.post(url, {})).json()).toEqual({ prefix_length: ['This field is required.'] });
    expect((await t.post(url, { prefix_length: 33 })).json()).toEqual({
      prefix_length: ['Invalid prefix length (33) for IPv4'],
    });
    expect((await t.post(url, [{ prefix_length: 28 }, { prefix_length: 'x' }])).json()).toEqual([
      {},
      { prefix_length: ['A valid integer is required.'] },
    ]);
    expect((await t.get('/api/ipam/prefixes/999999/available-prefixes/')).statusCode).toBe(404);
  });
});

describe('available-ips of a prefix', () => {
  it('skips network, broadcast, used addresses and child ranges, honours limit', async () => {
    const parent = await newPrefix({ prefix: '192.168.50.0/29' });
    await t.post('/api/ipam/ip-addresses/', { address: '192.168.50.2/29' });
    await t.post('/api/ipam/ip-ranges/', { start_address: '192.168.50.4/29', end_address: '192.168.50.5/29' });
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    const body = (await t.get(url)).json();
    expect(body).toEqual([
      { family: 4, address: '192.168.50.1/29', vrf: null },
      { family: 4, address: '192.168.50.3/29', vrf: null },
      { family: 4, address: '192.168.50.6/29', vrf: null },
    ]);
    expect((await t.get(`${url}?limit=1`)).json()).toHaveLength(1);
  });

  it('uses every address of a pool, a /31 and an IPv6 /127; none when marked utilized', async () => {
    const pool = await newPrefix({ prefix: '192.168.51.0/30', is_pool: true });
    expect((await t.get(`/api/ipam/prefixes/${pool.id}/available-ips/`)).json()).toHaveLength(4);
    const p31 = await newPrefix({ prefix: '192.168.52.0/31' });
    expect((await t.get(`/api/ipam/prefixes/${p31.id}/available-ips/`)).json()).toHaveLength(2);
    const v6 = await newPrefix({ prefix: '2001:db8:5::/126' });
    expect(
      (await t.get(`/api/ipam/prefixes/${v6.id}/available-ips/`)).json().map((a: { address: string }) => a.address),
    ).toEqual(['2001:db8:5::1/126', '2001:db8:5::2/126', '2001:db8:5::3/126']);
    const used = await newPrefix({ prefix: '192.168.53.0/24', mark_utilized: true });
    expect((await t.get(`/api/ipam/prefixes/${used.id}/available-ips/`)).json()).toEqual([]);
  });

  it('refuses a null body and a limit that is not a whole number, allocating nothing', async () => {
    const parent = await newPrefix({ prefix: '192.168.54.0/29' });
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    const res = await t.request('POST', url, { body: 'null' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary or a list of dictionaries.'],
    });
    const limit = await t.get(`${url}?limit=two`);
    expect(limit.statusCode).toBe(400);
    expect(limit.json()).toEqual({ limit: ['Enter a whole number.'] });
    expect((await t.get(url)).json()).toHaveLength(6);
  });

  it('allocates addresses with the parent mask and VRF, writes change records, 409 on shortage', async () => {
    const parent = await newPrefix({ prefix: '172.20.0.0/30', vrf: vrf.id });
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    const one = await t.post(url, { description: 'gw', dns_name: 'GW.example.com' });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toMatchObject({
      address: '172.20.0.1/30',
      vrf: { id: vrf.id },
      description: 'gw',
      dns_name: 'gw.example.com',
    });
    const short = await t.post(url, [{}, {}]);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toEqual({
      detail: 'An insufficient number of IP addresses are available within 172.20.0.0/30 (2 requested, 1 available)',
    });
    const last = await t.post(url, [{}]);
    expect(last.json().map((a: { address: string }) => a.address)).toEqual(['172.20.0.2/30']);
    const changes = (await t.get(`/api/extras/object-changes/?request_id=${last.headers['x-request-id']}`)).json();
    expect(changes.results.map((c: { changed_object_type: string }) => c.changed_object_type)).toEqual([
      'ipam.ipaddress',
    ]);
  });
});

describe('available-ips of an IP range', () => {
  it('lists and allocates inside the range with its mask', async () => {
    const range = (
      await t.post('/api/ipam/ip-ranges/', { start_address: '10.40.0.10/24', end_address: '10.40.0.12/24' })
    ).json();
    expect(range.display).toBe('10.40.0.10-12/24');
    expect(range.size).toBe(3);
    await t.post('/api/ipam/ip-addresses/', { address: '10.40.0.11/32' });
    const url = `/api/ipam/ip-ranges/${range.id}/available-ips/`;
    expect((await t.get(url)).json().map((a: { address: string }) => a.address)).toEqual([
      '10.40.0.10/24',
      '10.40.0.12/24',
    ]);
    expect((await t.post(url, [{}, {}])).json().map((a: { address: string }) => a.address)).toEqual([
      '10.40.0.10/24',
      '10.40.0.12/24',
    ]);
    const none = await t.post(url, {});
    expect(none.statusCode).toBe(409);
    expect(none.json().detail).toBe(
      'An insufficient number of IP addresses are available within 10.40.0.10-12/24 (1 requested, 0 available)',
    );
  });
});

describe('available-vlans', () => {
  it('lists free VIDs of the group and allocates them in order', async () => {
    const group = (
      await t.post('/api/ipam/vlan-groups/', { name: uniq('g'), slug: uniq('g'), min_vid: 10, max_vid: 13 })
    ).json();
    await t.post('/api/ipam/vlans/', { group: group.id, vid: 11, name: 'used' });
    const url = `/api/ipam/vlan-groups/${group.id}/available-vlans/`;
    const free = (await t.get(url)).json();
    expect(free.map((v: { vid: number }) => v.vid)).toEqual([10, 12, 13]);
    expect(free[0].group).toMatchObject({ id: group.id, name: group.name, slug: group.slug });
    const res = await t.post(url, [{ name: 'a' }, { name: 'b', status: 'reserved' }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().map((v: { vid: number }) => v.vid)).toEqual([10, 12]);
    expect(res.json()[0].group.id).toBe(group.id);
    expect((await t.post(url, {})).json()).toEqual({ name: ['This field is required.'] });
    const short = await t.post(url, [{ name: 'c' }, { name: 'd' }]);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toEqual({ detail: 'The requested number of VLANs is not available' });
  });
});
