import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeDevice,
  makeInterface,
  makeL2vpn,
  makeSite,
  makeVlan,
  makeVm,
  makeVmInterface,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const onVlan = (v: Json) => ({ assigned_object_type: 'ipam.vlan', assigned_object_id: v.id });
const onIface = (i: Json) => ({ assigned_object_type: 'dcim.interface', assigned_object_id: i.id });

describe('L2VPNs at /api/vpn/ and /api/ipam/', () => {
  it('serves the same objects at both paths, each listed in its app root and in the OpenAPI document', async () => {
    const rt = await make(t, '/api/ipam/route-targets/', { name: '65000:100' });
    const created = await t.post('/api/ipam/l2vpns/', {
      name: 'Blue',
      slug: uniq('blue'),
      type: 'vpls',
      identifier: 5000,
      import_targets: [rt.id],
    });
    expect(created.statusCode).toBe(201);
    const vpn = created.json();
    // one identity: the object's url names the vpn app, NetBox 3.7's only path
    expect(vpn.url).toBe(`http://localhost:80/api/vpn/l2vpns/${vpn.id}/`);
    expect(created.headers.location).toBe(vpn.url);
    expect(vpn).toMatchObject({
      display: 'Blue (5000)',
      type: { value: 'vpls', label: 'VPLS' },
      import_targets: [{ id: rt.id, name: '65000:100' }],
      export_targets: [],
    });
    const viaIpam = await get(`/api/ipam/l2vpns/${vpn.id}/`);
    expect(viaIpam).toEqual(await get(`/api/vpn/l2vpns/${vpn.id}/`));
    expect(ids(await get(`/api/ipam/l2vpns/?import_target_id=${rt.id}`))).toEqual([vpn.id]);
    expect(ids(await get(`/api/vpn/l2vpns/?import_target=65000:100`))).toEqual([vpn.id]);
    expect(ids(await get(`/api/vpn/l2vpns/?q=5000`))).toEqual([vpn.id]);
    // writes through either path change the one object
    expect((await t.patch(`/api/vpn/l2vpns/${vpn.id}/`, { description: 'x' })).statusCode).toBe(200);
    expect((await get(`/api/ipam/l2vpns/${vpn.id}/`)).description).toBe('x');
    const options = await t.request('OPTIONS', '/api/ipam/l2vpns/');
    expect(options.statusCode).toBe(200);
    expect(options.json()).toEqual((await t.request('OPTIONS', '/api/vpn/l2vpns/')).json());

    const ipamRoot = await get('/api/ipam/');
    const vpnRoot = await get('/api/vpn/');
    expect(ipamRoot).toMatchObject({
      l2vpns: 'http://localhost:80/api/ipam/l2vpns/',
      'l2vpn-terminations': 'http://localhost:80/api/ipam/l2vpn-terminations/',
    });
    expect(Object.keys(vpnRoot)).toEqual([
      'ike-policies',
      'ike-proposals',
      'ipsec-policies',
      'ipsec-profiles',
      'ipsec-proposals',
      'l2vpn-terminations',
      'l2vpns',
      'tunnel-groups',
      'tunnel-terminations',
      'tunnels',
    ]);
    expect((await get('/api/')).vpn).toBe('http://localhost:80/api/vpn/');
    const doc = await get('/api/schema/?format=json');
    expect(doc.paths['/api/ipam/l2vpns/'].get.operationId).toBe('ipam_l2vpns_list');
    expect(doc.paths['/api/vpn/l2vpns/{id}/'].patch.operationId).toBe('vpn_l2vpns_partial_update');
    expect(doc.paths['/api/ipam/l2vpn-terminations/{id}/'].get.responses['200']).toEqual(
      doc.paths['/api/vpn/l2vpn-terminations/{id}/'].get.responses['200'],
    );
  });

  it('terminates VLANs and interfaces, and renders the termination on them', async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('region'), slug: uniq('region') });
    const site = await makeSite(t, { region: region.id });
    const vpn = await makeL2vpn(t, { identifier: 77 });
    const vlan = await makeVlan(t, { site: site.id });
    const dev = await makeDevice(t, { site: site.id });
    const i = await makeInterface(t, dev, { name: 'xe-0/0/1' });
    const vmi = await makeVmInterface(t, await makeVm(t));
    const a = await make(t, '/api/ipam/l2vpn-terminations/', { l2vpn: vpn.id, ...onVlan(vlan) });
    const b = await make(t, '/api/vpn/l2vpn-terminations/', { l2vpn: vpn.id, ...onIface(i) });
    const c = await make(t, '/api/vpn/l2vpn-terminations/', {
      l2vpn: vpn.id,
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: vmi.id,
    });
    expect(a).toMatchObject({
      display: `${vlan.name} (100) <> ${vpn.name} (77)`,
      l2vpn: { id: vpn.id, identifier: 77, slug: vpn.slug },
      assigned_object: { id: vlan.id, vid: 100 },
    });
    expect(b.display).toBe(`xe-0/0/1 <> ${vpn.name} (77)`);
    // NetBox 3.4: interfaces, VM interfaces and VLANs show their termination
    expect((await get(`/api/dcim/interfaces/${i.id}/`)).l2vpn_termination).toMatchObject({
      id: b.id,
      l2vpn: { id: vpn.id },
    });
    expect((await get(`/api/virtualization/interfaces/${vmi.id}/`)).l2vpn_termination).toMatchObject({ id: c.id });
    expect((await get(`/api/ipam/vlans/${vlan.id}/`)).l2vpn_termination).toMatchObject({ id: a.id });
    expect((await get(`/api/dcim/interfaces/${(await makeInterface(t, dev)).id}/`)).l2vpn_termination).toBeNull();
    // ... and are filtered by it
    expect(ids(await get(`/api/dcim/interfaces/?l2vpn_id=${vpn.id}`))).toEqual([i.id]);
    expect(ids(await get(`/api/dcim/interfaces/?l2vpn=77`))).toEqual([i.id]);
    expect(ids(await get(`/api/virtualization/interfaces/?l2vpn_id=${vpn.id}`))).toEqual([vmi.id]);
    expect(ids(await get(`/api/ipam/vlans/?l2vpn_id=${vpn.id}`))).toEqual([vlan.id]);
    // the terminations' own filters (NetBox 3.7 L2VPNTerminationFilterSet)
    const list = (q: string) => get(`/api/vpn/l2vpn-terminations/?l2vpn_id=${vpn.id}&${q}`).then(ids);
    expect(await list(`site_id=${site.id}`)).toEqual([a.id, b.id]);
    expect(await list(`site=${site.slug}`)).toEqual([a.id, b.id]);
    expect(await list(`device_id=${dev.id}`)).toEqual([b.id]);
    expect(await list(`interface=xe-0/0/1`)).toEqual([b.id]);
    expect(await list(`vminterface_id=${vmi.id}`)).toEqual([c.id]);
    expect(await list(`vlan_vid=100`)).toEqual([a.id]);
    expect(await list(`vlan_id=${vlan.id}`)).toEqual([a.id]);
    expect(await list(`assigned_object_type=ipam.vlan`)).toEqual([a.id]);
    const [vlanType] = (await get('/api/extras/content-types/?app_label=ipam&model=vlan')).results;
    expect(await list(`assigned_object_type_id=${vlanType.id}`)).toEqual([a.id]);
    expect(await list(`region_id=${region.id}`)).toEqual([a.id, b.id]);
    expect(await list(`region=${region.slug}&interface_id=${i.id}`)).toEqual([b.id]);
    expect(
      await list(`region_id=${(await make(t, '/api/dcim/regions/', { name: uniq('r'), slug: uniq('r') })).id}`),
    ).toEqual([]);
    expect(await list(`l2vpn=${vpn.slug}&vlan_id__n=${vlan.id}`)).toEqual([b.id, c.id]);
    expect(ids(await get(`/api/ipam/l2vpn-terminations/?q=${vpn.name}`))).toEqual([a.id, b.id, c.id]);
    // deleting the VLAN removes its termination (NetBox's generic relation cascades)
    expect((await t.del(`/api/ipam/vlans/${vlan.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/vpn/l2vpn-terminations/${a.id}/`)).statusCode).toBe(404);
  });

  it('puts an object in one L2VPN at most', async () => {
    const [v1, v2] = [await makeL2vpn(t), await makeL2vpn(t)];
    const vlan = await makeVlan(t, { name: 'blue-vlan', vid: 200 });
    await make(t, '/api/vpn/l2vpn-terminations/', { l2vpn: v1.id, ...onVlan(vlan) });
    const again = await t.post('/api/vpn/l2vpn-terminations/', { l2vpn: v2.id, ...onVlan(vlan) });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ __all__: ['L2VPN Termination already assigned (blue-vlan (200))'] });
    const wrong = await t.post('/api/vpn/l2vpn-terminations/', {
      l2vpn: v2.id,
      assigned_object_type: 'dcim.device',
      assigned_object_id: 1,
    });
    expect(wrong.json()).toEqual({ assigned_object_type: ['Invalid content type: dcim.device'] });
  });

  it('allows two terminations on a point-to-point L2VPN, counting those of the same request', async () => {
    const vpws = await makeL2vpn(t, { type: 'vpws' });
    const dev = await makeDevice(t);
    const [i1, i2, i3, i4] = [
      await makeInterface(t, dev),
      await makeInterface(t, dev),
      await makeInterface(t, dev),
      await makeInterface(t, dev),
    ];
    await make(t, '/api/vpn/l2vpn-terminations/', { l2vpn: vpws.id, ...onIface(i1) });
    const bulk = await t.post('/api/vpn/l2vpn-terminations/', [
      { l2vpn: vpws.id, ...onIface(i2) },
      { l2vpn: vpws.id, ...onIface(i3) },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([
      {},
      { __all__: ['VPWS L2VPNs cannot have more than two terminations; found 2 already defined.'] },
    ]);
    expect((await get(`/api/vpn/l2vpn-terminations/?l2vpn_id=${vpws.id}`)).count).toBe(1);
    const second = await make(t, '/api/vpn/l2vpn-terminations/', { l2vpn: vpws.id, ...onIface(i2) });
    const third = await t.post('/api/vpn/l2vpn-terminations/', { l2vpn: vpws.id, ...onIface(i4) });
    expect(third.json()).toEqual({
      __all__: ['VPWS L2VPNs cannot have more than two terminations; found 2 already defined.'],
    });
    // moving a termination to another object of the same L2VPN is not an extra termination
    expect((await t.patch(`/api/vpn/l2vpn-terminations/${second.id}/`, { assigned_object_id: i3.id })).statusCode).toBe(
      200,
    );
    // a multipoint type has no limit
    const vpls = await makeL2vpn(t, { type: 'vpls' });
    for (const i of [i4, await makeInterface(t, dev), await makeInterface(t, dev)])
      await make(t, '/api/vpn/l2vpn-terminations/', { l2vpn: vpls.id, ...onIface(i) });
  });

  it('renders the terminations of an interface page with a constant number of statements', async () => {
    const vpn = await makeL2vpn(t);
    const dev = await makeDevice(t);
    const made = (
      await t.post(
        '/api/dcim/interfaces/',
        Array.from({ length: 16 }, (_, n) => ({ device: dev.id, name: `et-${n}`, type: '10gbase-t' })),
      )
    ).json() as Json[];
    expect(
      (
        await t.post(
          '/api/vpn/l2vpn-terminations/',
          made.map((i) => ({ l2vpn: vpn.id, ...onIface(i) })),
        )
      ).statusCode,
    ).toBe(201);
    const cost = async (limit: number) => {
      const before = t.db.stats.queries;
      // a parameter no filter knows makes each URL new, so the page is rendered, not served from the response cache
      const res = await t.get(`/api/dcim/interfaces/?device_id=${dev.id}&limit=${limit}&render=${uniq('r')}`);
      expect(res.json().results).toHaveLength(limit);
      expect(res.json().results.every((r: Json) => r.l2vpn_termination?.l2vpn?.id === vpn.id)).toBe(true);
      return t.db.stats.queries - before;
    };
    // the token and custom field caches may reload during one call, so each size takes its cheaper of two runs
    const cheapest = async (limit: number) => Math.min(await cost(limit), await cost(limit));
    expect(await cheapest(14)).toBe(await cheapest(2));
  });
});
