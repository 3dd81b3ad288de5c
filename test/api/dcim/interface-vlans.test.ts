import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, type Json, make, makeDevice, makeSite } from '../../factories/index.js';

let t: TestApp;
let device: Json;
let globalVlan: Json;
let siteVlan: Json;
let foreignVlan: Json;
let vrf: Json;
beforeAll(async () => {
  t = await makeTestApp();
  const site = await makeSite(t);
  const otherSite = await makeSite(t);
  device = await makeDevice(t, { site: site.id });
  globalVlan = await make(t, '/api/ipam/vlans/', { vid: 10, name: uniq('global') });
  siteVlan = await make(t, '/api/ipam/vlans/', { vid: 20, name: uniq('local'), site: site.id });
  foreignVlan = await make(t, '/api/ipam/vlans/', { vid: 30, name: uniq('foreign'), site: otherSite.id });
  vrf = await make(t, '/api/ipam/vrfs/', { name: uniq('vrf') });
});
afterAll(async () => t.close());

const newInterface = (extra: Json) =>
  t.post('/api/dcim/interfaces/', { device: device.id, name: uniq('ge'), type: '1000base-t', ...extra });

describe('interface 802.1Q and VRF', () => {
  it('stores the mode, untagged and tagged VLANs and the VRF, rendered nested', async () => {
    const res = await newInterface({
      mode: 'tagged',
      untagged_vlan: globalVlan.id,
      tagged_vlans: [siteVlan.id, globalVlan.id],
      vrf: vrf.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.mode).toEqual({ value: 'tagged', label: 'Tagged' });
    expect(body.untagged_vlan).toMatchObject({ id: globalVlan.id, vid: 10 });
    expect(body.tagged_vlans.map((v: Json) => v.id).sort()).toEqual([globalVlan.id, siteVlan.id].sort());
    expect(body.vrf.id).toBe(vrf.id);
  });

  it('refuses tagged VLANs outside tagged mode and VLANs of another site', async () => {
    const access = await newInterface({ mode: 'access', tagged_vlans: [globalVlan.id] });
    expect(access.statusCode).toBe(400);
    expect(access.json().tagged_vlans).toBeDefined();
    const foreign = await newInterface({ mode: 'access', untagged_vlan: foreignVlan.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().untagged_vlan[0]).toMatch(/belongs to another site/);
  });

  it('clears VLANs when the mode no longer allows them', async () => {
    const created = (
      await newInterface({ mode: 'tagged', untagged_vlan: siteVlan.id, tagged_vlans: [globalVlan.id] })
    ).json();
    const access = (await t.patch(`/api/dcim/interfaces/${created.id}/`, { mode: 'access' })).json();
    expect(access.tagged_vlans).toEqual([]);
    expect(access.untagged_vlan.id).toBe(siteVlan.id);
    const none = (await t.patch(`/api/dcim/interfaces/${created.id}/`, { mode: '' })).json();
    expect(none.mode).toBeNull();
    expect(none.untagged_vlan).toBeNull();
  });

  it('keeps the untagged VLAN through an update that does not name the mode', async () => {
    const created = (await newInterface({ mode: 'access', untagged_vlan: siteVlan.id })).json();
    const res = await t.patch(`/api/dcim/interfaces/${created.id}/`, { description: 'uplink' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mode: { value: 'access' }, untagged_vlan: { id: siteVlan.id } });
  });

  it('filters interfaces by the VLANs they carry, by id and by VID', async () => {
    const vlan = await make(t, '/api/ipam/vlans/', { vid: 4001, name: uniq('carried') });
    const untagged = (await newInterface({ mode: 'access', untagged_vlan: vlan.id })).json();
    const tagged = (await newInterface({ mode: 'tagged', tagged_vlans: [vlan.id] })).json();
    await newInterface({ mode: 'access', untagged_vlan: globalVlan.id });
    for (const q of [`vlan_id=${vlan.id}`, 'vlan=4001']) {
      const res = await t.get(`/api/dcim/interfaces/?${q}&ordering=id`);
      expect(
        res.json().results.map((i: Json) => i.id),
        q,
      ).toEqual([untagged.id, tagged.id]);
    }
    expect((await t.get('/api/dcim/interfaces/?vlan_id=x')).statusCode).toBe(400);
  });

  it('filters interfaces by VRF', async () => {
    const res = await t.get(`/api/dcim/interfaces/?vrf_id=${vrf.id}`);
    expect(res.json().count).toBe(1);
  });
});
