/**
 * The wireless app (NetBox 3.4): LAN groups, wireless LANs joined by interfaces, point-to-point
 * links between wireless interfaces; and the interfaces' radio fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { uniq, ids, type Json, make, makeDevice, makeInterface, makeWirelessLanGroup } from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();

describe('wireless LANs and groups', () => {
  it('nests groups, counts their LANs (descendants too), and lets interfaces join LANs', async () => {
    const root = await makeWirelessLanGroup(t);
    const child = await makeWirelessLanGroup(t, { parent: root.id });
    expect(child).toMatchObject({ parent: { id: root.id, _depth: 0 }, _depth: 1 });
    const vlan = await make(t, '/api/ipam/vlans/', { vid: 100, name: uniq('wifi') });
    const wlan = await make(t, '/api/wireless/wireless-lans/', {
      ssid: 'corp',
      group: child.id,
      vlan: vlan.id,
      auth_type: 'wpa-enterprise',
      auth_cipher: 'aes',
    });
    expect(wlan).toMatchObject({
      display: 'corp',
      status: { value: 'active', label: 'Active' },
      auth_type: { value: 'wpa-enterprise', label: 'WPA Enterprise' },
      vlan: { id: vlan.id },
    });
    expect((await get(`/api/wireless/wireless-lan-groups/${root.id}/`)).wirelesslan_count).toBe(1);
    expect(ids(await get(`/api/wireless/wireless-lans/?group_id=${root.id}`))).toEqual([wlan.id]);
    expect((await t.post('/api/wireless/wireless-lans/', { ssid: 'x'.repeat(33) })).json()).toHaveProperty('ssid');
    const ap = await makeInterface(t, await makeDevice(t), {
      type: 'ieee802.11ax',
      wireless_lans: [wlan.id],
      rf_role: 'ap',
    });
    expect(ap.wireless_lans).toEqual([expect.objectContaining({ id: wlan.id, ssid: 'corp' })]);
    expect(ap.rf_role).toEqual({ value: 'ap', label: 'Access point' });
  });
});

describe('interface radio fields', () => {
  it('fills frequency and width from the channel, refuses others, and keeps radio fields off wired interfaces', async () => {
    const d = await makeDevice(t);
    const radio = await makeInterface(t, d, { type: 'ieee802.11ac', rf_channel: '5g-36-5180-20', tx_power: 20 });
    expect(radio).toMatchObject({
      rf_channel: { value: '5g-36-5180-20' },
      rf_channel_frequency: 5180,
      rf_channel_width: 20,
      tx_power: 20,
    });
    const custom = await t.post('/api/dcim/interfaces/', {
      device: d.id,
      name: uniq('wl'),
      type: 'ieee802.11ac',
      rf_channel: '5g-36-5180-20',
      rf_channel_frequency: 5200,
    });
    expect(custom.json()).toEqual({ rf_channel_frequency: ['Cannot specify custom frequency with channel selected.'] });
    const wired = await t.post('/api/dcim/interfaces/', {
      device: d.id,
      name: uniq('ge'),
      type: '1000base-t',
      rf_role: 'ap',
    });
    expect(wired.json()).toEqual({ rf_role: ['Wireless role may be set only on wireless interfaces.'] });
    const wwn = await makeInterface(t, d, { type: '16gfc-sfpp', wwn: '50-01-43-80-12-34-56-78' });
    expect(wwn.wwn).toBe('50:01:43:80:12:34:56:78');
    expect(
      (
        await t.post('/api/dcim/interfaces/', { device: d.id, name: uniq('fc'), type: '16gfc-sfpp', wwn: 'nope' })
      ).json(),
    ).toHaveProperty('wwn');
  });
});

describe('wireless links', () => {
  it('links two wireless interfaces, which name the link and each other, and frees them when it goes', async () => {
    const [a, b] = [
      await makeInterface(t, await makeDevice(t), { type: 'ieee802.11ac' }),
      await makeInterface(t, await makeDevice(t), { type: 'ieee802.11ac' }),
    ];
    const wired = await makeInterface(t, await makeDevice(t));
    const bad = await t.post('/api/wireless/wireless-links/', { interface_a: a.id, interface_b: wired.id });
    expect(bad.json()).toEqual({ interface_b: ['1000BASE-T (1GE) is not a wireless interface.'] });
    const link = await make(t, '/api/wireless/wireless-links/', {
      interface_a: a.id,
      interface_b: b.id,
      ssid: 'ptp-1',
      status: 'planned',
    });
    expect(link).toMatchObject({
      display: 'ptp-1',
      status: { value: 'planned', label: 'Planned' },
      interface_a: { id: a.id },
      interface_b: { id: b.id },
    });
    const ia = await get(`/api/dcim/interfaces/${a.id}/`);
    expect(ia).toMatchObject({ wireless_link: { id: link.id }, _occupied: true, link_peers_type: 'dcim.interface' });
    expect(ia.link_peers.map((p: Json) => p.id)).toEqual([b.id]);
    const c = await makeInterface(t, await makeDevice(t), { type: 'ieee802.11ac' });
    const taken = await t.post('/api/wireless/wireless-links/', { interface_a: c.id, interface_b: b.id });
    expect(taken.json()).toEqual({ interface_b: [`Interface ${b.id} is already on wireless link ${link.id}.`] });
    expect(ids(await get(`/api/wireless/wireless-links/?interface_a_id=${a.id}`))).toEqual([link.id]);
    // an interface on a link cannot be deleted (NetBox: PROTECT); the link can, freeing both
    expect((await t.del(`/api/dcim/interfaces/${a.id}/`)).statusCode).toBe(409);
    expect((await t.del(`/api/wireless/wireless-links/${link.id}/`)).statusCode).toBe(204);
    expect(await get(`/api/dcim/interfaces/${b.id}/`)).toMatchObject({
      wireless_link: null,
      link_peers: [],
      _occupied: false,
    });
  });
});

describe('wireless links on cable paths', () => {
  it("puts the link on both interfaces' paths: connected endpoints, trace, the connected filter, and a retrace when the link changes or goes", async () => {
    const [da, db, dc] = [await makeDevice(t), await makeDevice(t), await makeDevice(t)];
    const [a, b, c] = [
      await makeInterface(t, da, { type: 'ieee802.11ax' }),
      await makeInterface(t, db, { type: 'ieee802.11ax' }),
      await makeInterface(t, dc, { type: 'ieee802.11ax' }),
    ];
    const link = await make(t, '/api/wireless/wireless-links/', {
      interface_a: a.id,
      interface_b: b.id,
      ssid: uniq('ptp'),
    });
    const ia = await get(`/api/dcim/interfaces/${a.id}/`);
    expect(ia).toMatchObject({ connected_endpoints_type: 'dcim.interface', connected_endpoints_reachable: true });
    expect(ia.connected_endpoints.map((e: Json) => e.id)).toEqual([b.id]);
    expect((await get(`/api/dcim/interfaces/${b.id}/`)).connected_endpoints.map((e: Json) => e.id)).toEqual([a.id]);
    const trace = await get(`/api/dcim/interfaces/${a.id}/trace/`);
    expect(trace).toHaveLength(1);
    expect(trace[0][0].map((e: Json) => e.id)).toEqual([a.id]);
    expect(trace[0][1]).toEqual({
      id: link.id,
      url: expect.stringContaining(`/api/wireless/wireless-links/${link.id}/`),
      ssid: link.ssid,
      status: 'connected',
      description: '',
    });
    expect(trace[0][2].map((e: Json) => e.id)).toEqual([b.id]);
    expect(ids(await get(`/api/dcim/interfaces/?device_id=${da.id}&connected=true`))).toEqual([a.id]);
    const connected = await get(`/api/dcim/connected-device/?peer_device=${db.name}&peer_interface=${b.name}`);
    expect(connected.id).toBe(da.id);

    // a planned link: the path stays, but is not active (not reachable)
    await t.patch(`/api/wireless/wireless-links/${link.id}/`, { status: 'planned' });
    expect(await get(`/api/dcim/interfaces/${a.id}/`)).toMatchObject({ connected_endpoints_reachable: false });
    expect(ids(await get(`/api/dcim/interfaces/?device_id=${da.id}&connected=true`))).toEqual([]);

    // the link moves its B end: b loses its path, c gains one
    expect(
      (await t.patch(`/api/wireless/wireless-links/${link.id}/`, { interface_b: c.id, status: 'connected' }))
        .statusCode,
    ).toBe(200);
    expect((await get(`/api/dcim/interfaces/${a.id}/`)).connected_endpoints.map((e: Json) => e.id)).toEqual([c.id]);
    expect(await get(`/api/dcim/interfaces/${b.id}/`)).toMatchObject({
      connected_endpoints: null,
      connected_endpoints_reachable: null,
      link_peers: [],
    });
    expect((await get(`/api/dcim/interfaces/${c.id}/`)).connected_endpoints.map((e: Json) => e.id)).toEqual([a.id]);

    // deleting the link removes both paths
    expect((await t.del(`/api/wireless/wireless-links/${link.id}/`)).statusCode).toBe(204);
    for (const i of [a, c])
      expect(await get(`/api/dcim/interfaces/${i.id}/`)).toMatchObject({
        connected_endpoints: null,
        connected_endpoints_reachable: null,
      });
    expect(await get(`/api/dcim/interfaces/${a.id}/trace/`)).toEqual([]);
  });
});
