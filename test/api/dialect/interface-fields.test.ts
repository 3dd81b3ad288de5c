/**
 * The fields NetBox 4.2-4.4 added to device and VM interfaces besides MAC objects and Q-in-Q
 * (mac-addresses.test.ts, qinq.test.ts): `vlan_translation_policy` (4.2) and a device interface's
 * `bridge_interfaces` (4.4), shown in the 4.4 dialect only; and the 4.4 representation holds
 * exactly the fields of NetBox 4.4's serializers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api44,
  type Api44,
  ids,
  type Json,
  makeDevice,
  makeInterface,
  makeVlanTranslationPolicy,
  makeVm,
  makeVmInterface,
} from '../../factories/index.js';
import type { TestApp } from '../../helpers/app.js';
import { makeContractApp } from '../../contract/harness.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  // every answer checked against the document of its dialect
  t = await makeContractApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

const IFACES = '/api/dcim/interfaces/';

/** NetBox 4.4.10's InterfaceSerializer and VMInterfaceSerializer fields (Meta.fields) */
const NETBOX44_FIELDS: Record<string, string[]> = {
  [IFACES]: [
    ...['id', 'url', 'display_url', 'display', 'device', 'vdcs', 'module', 'name', 'label', 'type', 'enabled'],
    ...['parent', 'bridge', 'bridge_interfaces', 'lag', 'mtu', 'mac_address', 'primary_mac_address'],
    ...['mac_addresses', 'speed', 'duplex', 'wwn', 'mgmt_only', 'description', 'mode', 'rf_role', 'rf_channel'],
    ...['poe_mode', 'poe_type', 'rf_channel_frequency', 'rf_channel_width', 'tx_power', 'untagged_vlan'],
    ...['tagged_vlans', 'qinq_svlan', 'vlan_translation_policy', 'mark_connected', 'cable', 'cable_end'],
    ...['wireless_link', 'link_peers', 'link_peers_type', 'wireless_lans', 'vrf', 'l2vpn_termination'],
    ...['connected_endpoints', 'connected_endpoints_type', 'connected_endpoints_reachable', 'tags'],
    ...['custom_fields', 'created', 'last_updated', 'count_ipaddresses', 'count_fhrp_groups', '_occupied'],
  ],
  '/api/virtualization/interfaces/': [
    ...['id', 'url', 'display_url', 'display', 'virtual_machine', 'name', 'enabled', 'parent', 'bridge', 'mtu'],
    ...['mac_address', 'primary_mac_address', 'mac_addresses', 'description', 'mode', 'untagged_vlan'],
    ...['tagged_vlans', 'qinq_svlan', 'vlan_translation_policy', 'vrf', 'l2vpn_termination', 'tags'],
    ...['custom_fields', 'created', 'last_updated', 'count_ipaddresses', 'count_fhrp_groups'],
  ],
};

const KINDS: Array<[string, (extra?: Json) => Promise<Json>]> = [
  [IFACES, async (extra = {}) => makeInterface(t, await makeDevice(t), extra)],
  ['/api/virtualization/interfaces/', async (extra = {}) => makeVmInterface(t, await makeVm(t), extra)],
];

describe.each(KINDS)('%s', (path, makeOne) => {
  it("shows NetBox 4.4's fields in 4.4", async () => {
    const i = await makeOne();
    const shown = (await v44.get(`${path}${i.id}/`)).json();
    expect(Object.keys(shown).sort()).toEqual([...NETBOX44_FIELDS[path]!].sort());
  });

  it('takes a VLAN translation policy in either dialect, shows it in 4.4 only and filters by it', async () => {
    const policy = await makeVlanTranslationPolicy(t);
    const other = await makeVlanTranslationPolicy(t);
    const i = await makeOne({ vlan_translation_policy: policy.id });
    const j = await makeOne();
    expect((await v44.patch(`${path}${j.id}/`, { vlan_translation_policy: other.id })).statusCode).toBe(200);
    const shown = (await v44.get(`${path}${i.id}/`)).json();
    expect(shown.vlan_translation_policy).toEqual({
      id: policy.id,
      url: policy.url,
      display: policy.name,
      name: policy.name,
      description: '',
    });
    expect((await t.get(`${path}${i.id}/`)).json()).not.toHaveProperty('vlan_translation_policy');
    const find = async (q: string) => ids((await v44.get(`${path}?${q}&ordering=id`)).json());
    expect(await find(`vlan_translation_policy_id=${policy.id}`)).toEqual([i.id]);
    expect(await find(`vlan_translation_policy=${other.name}`)).toEqual([j.id]);
    expect(await find(`vlan_translation_policy_id=${policy.id}&vlan_translation_policy_id=${other.id}`)).toEqual([
      i.id,
      j.id,
    ]);
  });

  it('keeps a policy in use from being deleted', async () => {
    const policy = await makeVlanTranslationPolicy(t);
    const i = await makeOne({ vlan_translation_policy: policy.id });
    const res = await v44.del(`/api/ipam/vlan-translation-policies/${policy.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/^Unable to delete object\. 1 dependent objects were found: /);
    expect((await v44.patch(`${path}${i.id}/`, { vlan_translation_policy: null })).statusCode).toBe(200);
    expect((await v44.del(`/api/ipam/vlan-translation-policies/${policy.id}/`)).statusCode).toBe(204);
  });
});

describe("a device interface's bridge_interfaces (NetBox 4.4)", () => {
  it('lists the interfaces bridged to it, nested in name order, in 4.4 only', async () => {
    const device = await makeDevice(t);
    const bridge = await makeInterface(t, device, { name: 'br0', type: 'bridge' });
    const b = await makeInterface(t, device, { name: 'eth10', bridge: bridge.id });
    const a = await makeInterface(t, device, { name: 'eth9', bridge: bridge.id });
    const loose = await makeInterface(t, device, { name: 'eth11' });
    const nested = async (i: Json) => {
      const brief = (await v44.get(`${IFACES}${i.id}/?brief=1`)).json();
      return { ...brief, _occupied: false };
    };
    const detail = (await v44.get(`${IFACES}${bridge.id}/`)).json();
    expect(detail.bridge_interfaces).toEqual([await nested(a), await nested(b)]);
    const page = (await v44.get(`${IFACES}?device_id=${device.id}&ordering=id`)).json().results as Json[];
    expect(page.map((i) => i.bridge_interfaces.map((m: Json) => m.id))).toEqual([[a.id, b.id], [], [], []]);
    expect((await v44.get(`${IFACES}${loose.id}/`)).json().bridge_interfaces).toEqual([]);
    expect((await t.get(`${IFACES}${bridge.id}/`)).json()).not.toHaveProperty('bridge_interfaces');
  });
});
