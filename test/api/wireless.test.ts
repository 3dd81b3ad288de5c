/**
 * The wireless app (NetBox 3.4): LAN groups, wireless LANs joined by interfaces, point-to-point
 * links between wireless interfaces; and the interfaces' radio fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp, uniq } from '../helpers/app.js';
import { ids, type Json, make, makeDevice, makeInterface } from './dcim/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const named = (p: string) => {
  const n = uniq(p);
  return { name: n, slug: n };
};

describe('wireless LANs and groups', () => {
  it('nests groups, counts their LANs (descendants too), and lets interfaces join LANs', async () => {
    const root = await make(t, '/api/wireless/wireless-lan-groups/', named('campus'));
    const child = await make(t, '/api/wireless/wireless-lan-groups/', { ...named('building'), parent: root.id });
    expect(child).toMatchObject({ parent: { id: root.id, _depth: 0 }, _depth: 1 });
    const vlan = await make(t, '/api/ipam/vlans/', { vid: 100, name: uniq('wifi') });
    const wlan = await make(t, '/api/wireless/wireless-lans/', { ssid: 'corp', group: child.id, vlan: vlan.id, auth_type: 'wpa-enterprise', auth_cipher: 'aes' });
    expect(wlan).toMatchObject({ display: 'corp', status: { value: 'active', label: 'Active' }, auth_type: { value: 'wpa-enterprise', label: 'WPA Enterprise' }, vlan: { id: vlan.id } });
    expect((await get(`/api/wireless/wireless-lan-groups/${root.id}/`)).wirelesslan_count).toBe(1);
    expect(ids(await get(`/api/wireless/wireless-lans/?group_id=${root.id}`))).toEqual([wlan.id]);
    expect((await t.post('/api/wireless/wireless-lans/', { ssid: 'x'.repeat(33) })).json()).toHaveProperty('ssid');
    const ap = await makeInterface(t, await makeDevice(t), { type: 'ieee802.11ax', wireless_lans: [wlan.id], rf_role: 'ap' });
    expect(ap.wireless_lans).toEqual([expect.objectContaining({ id: wlan.id, ssid: 'corp' })]);
    expect(ap.rf_role).toEqual({ value: 'ap', label: 'Access point' });
  });
});

describe('interface radio fields', () => {
  it('fills frequency and width from the channel, refuses others, and keeps radio fields off wired interfaces', async () => {
    const d = await makeDevice(t);
    const radio = await makeInterface(t, d, { type: 'ieee802.11ac', rf_channel: '5g-36-5180-20', tx_power: 20 });
    expect(radio).toMatchObject({ rf_channel: { value: '5g-36-5180-20' }, rf_channel_frequency: 5180, rf_channel_width: 20, tx_power: 20 });
    const custom = await t.post('/api/dcim/interfaces/', { device: d.id, name: uniq('wl'), type: 'ieee802.11ac', rf_channel: '5g-36-5180-20', rf_channel_frequency: 5200 });
    expect(custom.json()).toEqual({ rf_channel_frequency: ['Cannot specify custom frequency with channel selected.'] });
    const wired = await t.post('/api/dcim/interfaces/', { device: d.id, name: uniq('ge'), type: '1000base-t', rf_role: 'ap' });
    expect(wired.json()).toEqual({ rf_role: ['Wireless role may be set only on wireless interfaces.'] });
    const wwn = await makeInterface(t, d, { type: '16gfc-sfpp', wwn: '50-01-43-80-12-34-56-78' });
    expect(wwn.wwn).toBe('50:01:43:80:12:34:56:78');
    expect((await t.post('/api/dcim/interfaces/', { device: d.id, name: uniq('fc'), type: '16gfc-sfpp', wwn: 'nope' })).json()).toHaveProperty('wwn');
  });
});

describe('wireless links', () => {
  it('links two wireless interfaces, which name the link and each other, and frees them when it goes', async () => {
    const [a, b] = [await makeInterface(t, await makeDevice(t), { type: 'ieee802.11ac' }), await makeInterface(t, await makeDevice(t), { type: 'ieee802.11ac' })];
    const wired = await makeInterface(t, await makeDevice(t));
    const bad = await t.post('/api/wireless/wireless-links/', { interface_a: a.id, interface_b: wired.id });
    expect(bad.json()).toEqual({ interface_b: ['1000BASE-T (1GE) is not a wireless interface.'] });
    const link = await make(t, '/api/wireless/wireless-links/', { interface_a: a.id, interface_b: b.id, ssid: 'ptp-1', status: 'planned' });
    expect(link).toMatchObject({ display: 'ptp-1', status: { value: 'planned', label: 'Planned' }, interface_a: { id: a.id }, interface_b: { id: b.id } });
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
    expect(await get(`/api/dcim/interfaces/${b.id}/`)).toMatchObject({ wireless_link: null, link_peers: [], _occupied: false });
  });
});
