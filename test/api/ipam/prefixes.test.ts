import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Json, make, makePrefix, makeVrf, uniq } from '../../factories/index.js';

let t: TestApp;
let vrfA: Json;
let vrfB: Json;
/** `id=` of the fixture's prefixes: the filter tests read only them, whatever other tests add */
let fixture: string;
const ids = (res: { json(): { results: Array<{ prefix: string }> } }) => res.json().results.map((r) => r.prefix);

beforeAll(async () => {
  t = await makeTestApp();
  const rt = await make(t, '/api/ipam/route-targets/', { name: '65000:1' });
  vrfA = await makeVrf(t, { rd: '65000:100', export_targets: [rt.id] });
  vrfB = await makeVrf(t, { rd: '65000:200', import_targets: [rt.id] });
  const res = await t.post('/api/ipam/prefixes/', [
    { prefix: '10.0.0.0/8', status: 'container' },
    { prefix: '10.1.0.0/16' },
    { prefix: '10.1.2.0/24', status: 'reserved' },
    { prefix: '10.1.0.0/16', vrf: vrfA.id },
    { prefix: '2001:DB8:0:0::/32' },
  ]);
  expect(res.statusCode, res.body).toBe(201);
  fixture = (res.json() as Json[]).map((p) => `id=${p.id}`).join('&');
});
afterAll(async () => t.close());

describe('prefix representation', () => {
  it('renders family {value,label}, children and _depth computed within the VRF', async () => {
    const body = (await t.get('/api/ipam/prefixes/?prefix=10.1.0.0/16&vrf_id=null')).json().results[0];
    expect(body.family).toEqual({ value: 4, label: 'IPv4' });
    expect(body.children).toBe(1);
    expect(body._depth).toBe(1);
    expect(body.status).toEqual({ value: 'active', label: 'Active' });
    expect(body.display).toBe('10.1.0.0/16');
    expect(body.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const inVrf = (await t.get(`/api/ipam/prefixes/?vrf_id=${vrfA.id}`)).json().results[0];
    expect(inVrf).toMatchObject({ prefix: '10.1.0.0/16', children: 0, _depth: 0 });
  });

  it('counts children and depth in its own VRF where VRFs share a space, the last block and IPv6 included', async () => {
    const vrf = await makeVrf(t, {});
    const other = await makeVrf(t, {});
    const made = await t.post('/api/ipam/prefixes/', [
      ...[vrf, other].flatMap((v) => [
        { prefix: '172.16.0.0/12', vrf: v.id, status: 'container' },
        { prefix: '172.16.0.0/16', vrf: v.id },
        { prefix: '172.31.255.0/24', vrf: v.id },
        { prefix: '172.31.255.255/32', vrf: v.id },
      ]),
      { prefix: '172.32.0.0/16', vrf: vrf.id },
      { prefix: '2001:db8:100::/40', vrf: vrf.id, status: 'container' },
      { prefix: '2001:db8:1ff:ffff::/64', vrf: vrf.id },
      { prefix: '2001:db8:200::/48', vrf: vrf.id },
    ]);
    expect(made.statusCode, made.body).toBe(201);
    const rows = (await t.get(`/api/ipam/prefixes/?vrf_id=${vrf.id}&limit=100`)).json().results as Json[];
    const got = Object.fromEntries(rows.map((r) => [r.prefix, [r.children, r._depth]]));
    expect(got).toEqual({
      '172.16.0.0/12': [3, 0],
      '172.16.0.0/16': [0, 1],
      '172.31.255.0/24': [1, 1],
      '172.31.255.255/32': [0, 2],
      '172.32.0.0/16': [0, 0],
      '2001:db8:100::/40': [1, 0],
      '2001:db8:1ff:ffff::/64': [0, 1],
      '2001:db8:200::/48': [0, 0],
    });
    const filtered = await t.get(`/api/ipam/prefixes/?vrf_id=${vrf.id}&children__gte=1`);
    expect(ids(filtered)).toEqual(['172.16.0.0/12', '172.31.255.0/24', '2001:db8:100::/40']);
    // the other tests list every IPv6 prefix
    for (const p of made.json() as Json[]) expect((await t.del(`/api/ipam/prefixes/${p.id}/`)).statusCode).toBe(204);
  });

  it('has the brief form exactly id, url, family (integer), prefix', async () => {
    const list = (await t.get('/api/ipam/prefixes/?brief=1&prefix=10.1.2.0/24')).json();
    const item = list.results[0];
    expect(Object.keys(item).sort()).toEqual(['family', 'id', 'prefix', 'url']);
    expect(item.family).toBe(4);
    expect((await t.get(`/api/ipam/prefixes/${item.id}/?brief=1`)).json()).toEqual(item);
  });

  it('normalises IPv6 and refuses host bits with a suggestion, and /0', async () => {
    expect(ids(await t.get('/api/ipam/prefixes/?family=6'))).toEqual(['2001:db8::/32']);
    const bad = await t.post('/api/ipam/prefixes/', { prefix: '10.0.0.1/24' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ prefix: ['10.0.0.1/24 is not a valid prefix. Did you mean 10.0.0.0/24?'] });
    expect((await t.post('/api/ipam/prefixes/', { prefix: 'nope' })).json()).toEqual({
      prefix: ['Invalid IP prefix format: nope'],
    });
    expect((await t.post('/api/ipam/prefixes/', { prefix: '0.0.0.0/0' })).statusCode).toBe(400);
  });

  it('changes status by PATCH and refuses statuses outside the four', async () => {
    const p = (await t.post('/api/ipam/prefixes/', { prefix: '192.0.2.0/24' })).json();
    const res = await t.patch(`/api/ipam/prefixes/${p.id}/`, { status: 'deprecated' });
    expect(res.json().status).toEqual({ value: 'deprecated', label: 'Deprecated' });
    expect((await t.patch(`/api/ipam/prefixes/${p.id}/`, { status: 'dhcp' })).json()).toEqual({
      status: ['"dhcp" is not a valid choice.'],
    });
    expect((await t.get('/api/ipam/prefixes/?status=bogus')).statusCode).toBe(400);
    await t.del(`/api/ipam/prefixes/${p.id}/`);
  });
});

describe('prefix filters', () => {
  const list = (q: string) => t.get(`/api/ipam/prefixes/?family=4&${fixture}&${q}&ordering=prefix`);

  it('within, within_include and contains (prefix or address)', async () => {
    expect(ids(await list('within=10.0.0.0/8&vrf_id=null'))).toEqual(['10.1.0.0/16', '10.1.2.0/24']);
    expect(ids(await list('within_include=10.1.0.0/16&vrf_id=null'))).toEqual(['10.1.0.0/16', '10.1.2.0/24']);
    expect(ids(await list('contains=10.1.2.7&vrf_id=null'))).toEqual(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']);
    expect(ids(await list('contains=10.1.2.0/25&vrf_id=null'))).toEqual(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']);
  });

  // NetBox answers an empty list; issue 9 asks for a 400 naming the parameter
  it('answers an invalid network value with 400 naming the parameter', async () => {
    for (const q of ['within=bogus', 'contains=10.0.0.300', 'prefix=nope']) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toEqual({ [q.split('=')[0]!]: ['Enter a valid IPv4 or IPv6 address or network.'] });
    }
  });

  it('prefix (host bits forgiven), mask_length and its gte/lte', async () => {
    expect(ids(await list('prefix=10.1.2.9/24'))).toEqual(['10.1.2.0/24']);
    expect(ids(await list('mask_length=16&vrf_id=null'))).toEqual(['10.1.0.0/16']);
    expect(ids(await list('mask_length__gte=16&vrf_id=null'))).toEqual(['10.1.0.0/16', '10.1.2.0/24']);
    expect(ids(await list('mask_length__lte=16&vrf_id=null'))).toEqual(['10.0.0.0/8', '10.1.0.0/16']);
    expect((await list('mask_length=x')).statusCode).toBe(400);
  });

  it('vrf by RD, vrf_id, null, and present_in_vrf through route targets', async () => {
    expect(ids(await list(`vrf=${vrfA.rd}`))).toEqual(['10.1.0.0/16']);
    expect(ids(await list(`vrf_id=${vrfA.id}`))).toEqual(['10.1.0.0/16']);
    expect((await list('vrf_id=null')).json().count).toBe(3);
    // vrf B imports the route target vrf A exports
    expect(ids(await list(`present_in_vrf_id=${vrfB.id}`))).toEqual(['10.1.0.0/16']);
    expect(ids(await list(`present_in_vrf=${vrfB.rd}`))).toEqual(['10.1.0.0/16']);
    expect(ids(await list(`present_in_vrf_id=${vrfA.id}`))).toEqual(['10.1.0.0/16']);
    expect((await list('present_in_vrf_id=999999')).statusCode).toBe(400);
  });

  it('status, children and depth', async () => {
    expect(ids(await list('status=container'))).toEqual(['10.0.0.0/8']);
    expect(ids(await list('children__gte=1&vrf_id=null'))).toEqual(['10.0.0.0/8', '10.1.0.0/16']);
    expect(ids(await list('depth=2'))).toEqual(['10.1.2.0/24']);
  });

  it('vlan_id and vlan_vid', async () => {
    const vlan = (await t.post('/api/ipam/vlans/', { vid: 42, name: uniq('v') })).json();
    const p = (await t.post('/api/ipam/prefixes/', { prefix: '172.16.0.0/24', vlan: vlan.id })).json();
    // this test's own prefix, outside the fixture
    const byVlan = (q: string) => t.get(`/api/ipam/prefixes/?family=4&${q}&ordering=prefix`);
    expect(ids(await byVlan(`vlan_id=${vlan.id}`))).toEqual(['172.16.0.0/24']);
    expect(ids(await byVlan('vlan_vid=42'))).toEqual(['172.16.0.0/24']);
    expect(ids(await byVlan('vlan_vid__gt=42'))).toEqual([]);
    await t.del(`/api/ipam/prefixes/${p.id}/`);
  });

  it('searches q by containment', async () => {
    expect(ids(await list('q=10.1.2.3&vrf_id=null'))).toEqual(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']);
  });
});

describe('prefix uniqueness and protection', () => {
  it('allows duplicates in the global table by default and refuses them in an enforcing VRF', async () => {
    // outside 10.0.0.0/8 and a VRF of its own: the filter tests read the file's prefixes and VRFs
    for (let i = 0; i < 2; i++)
      expect((await t.post('/api/ipam/prefixes/', { prefix: '203.0.113.0/24' })).statusCode).toBe(201);
    const dup = await t.post('/api/ipam/prefixes/', { prefix: '10.1.0.0/16', vrf: vrfA.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({
      prefix: [
        `Duplicate prefix found in VRF ${(await t.get(`/api/ipam/vrfs/${vrfA.id}/`)).json().display}: 10.1.0.0/16`,
      ],
    });
    const vrf = await makeVrf(t, { enforce_unique: true });
    await makePrefix(t, '10.9.0.0/16', { vrf: vrf.id });
    expect((await t.post('/api/ipam/prefixes/', { prefix: '10.9.0.0/16', vrf: vrf.id })).statusCode).toBe(400);
    await t.patch(`/api/ipam/vrfs/${vrf.id}/`, { enforce_unique: false });
    expect(
      (
        await t.post('/api/ipam/prefixes/', [
          { prefix: '10.9.0.0/16', vrf: vrf.id },
          { prefix: '10.9.0.0/16', vrf: vrf.id },
        ])
      ).statusCode,
    ).toBe(201);
  });

  it('answers 409 naming the prefixes when their VRF is deleted, and keeps everything', async () => {
    const res = await t.del(`/api/ipam/vrfs/${vrfA.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(
      /^Unable to delete object\. 1 dependent objects were found: 10\.1\.0\.0\/16 \(\d+\)$/,
    );
    expect((await t.get(`/api/ipam/vrfs/${vrfA.id}/`)).statusCode).toBe(200);
  });

  it('sets the role to null when the role is deleted', async () => {
    const role = (await t.post('/api/ipam/roles/', { name: uniq('r'), slug: uniq('r') })).json();
    const p = (await t.post('/api/ipam/prefixes/', { prefix: '198.51.100.0/24', role: role.id })).json();
    expect((await t.del(`/api/ipam/roles/${role.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/ipam/prefixes/${p.id}/`)).json().role).toBeNull();
  });
});
