/**
 * VM interfaces (reference 3.5) and the addresses on them (spec: Generic relations 3): nested
 * forms, uniqueness per VM, parent/bridge rules, 802.1Q, filters on both sides, the VM's primary
 * addresses, and what deleting an interface does to its addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeCluster,
  makeSite,
  makeVm,
  makeVmInterface,
  onVmInterface,
} from '../../factories/index.js';

let t: TestApp;
let site: Json;
let vm: Json;
let eth0: Json;
let ip: Json;
beforeAll(async () => {
  t = await makeTestApp();
  site = await makeSite(t);
  vm = await makeVm(t, { site: site.id, cluster: (await makeCluster(t, { site: site.id })).id });
  eth0 = await makeVmInterface(t, vm, { name: 'eth0', mac_address: '00:11:22:33:44:55', mtu: 9000 });
  ip = await make(t, '/api/ipam/ip-addresses/', { address: '203.0.113.5/24', ...onVmInterface(eth0) });
});
afterAll(async () => t.close());

const ifaces = async (q: string) => ids((await t.get(`/api/virtualization/interfaces/?${q}`)).json());

describe('representation', () => {
  it('nests the virtual machine, and counts addresses', async () => {
    const body = (await t.get(`/api/virtualization/interfaces/${eth0.id}/`)).json();
    expect(body).toMatchObject({
      display: 'eth0',
      virtual_machine: { id: vm.id, url: vm.url, display: vm.name, name: vm.name },
      name: 'eth0',
      enabled: true,
      mtu: 9000,
      mac_address: '00:11:22:33:44:55',
      mode: null,
      untagged_vlan: null,
      tagged_vlans: [],
      vrf: null,
      l2vpn_termination: null,
      count_ipaddresses: 1,
      count_fhrp_groups: 0,
    });
  });

  it('renders the interface nested in the address it carries', () => {
    expect(ip.assigned_object_type).toBe('virtualization.vminterface');
    expect(ip.assigned_object).toEqual({
      id: eth0.id,
      url: eth0.url,
      display: 'eth0',
      virtual_machine: { id: vm.id, url: vm.url, display: vm.name, name: vm.name },
      name: 'eth0',
    });
  });
});

describe('validation', () => {
  it('keeps names unique per VM', async () => {
    const res = await t.post('/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'eth0' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ __all__: ['Interface with this Virtual machine and Name already exists.'] });
    await makeVmInterface(t, await makeVm(t), { name: 'eth0' });
  });

  it('takes a parent and a bridge of the same VM only, never itself', async () => {
    const other = await makeVm(t);
    const foreign = await makeVmInterface(t, other, { name: 'ens3' });
    const sub = await makeVmInterface(t, vm, { parent: eth0.id, bridge: eth0.id });
    expect(sub.parent).toMatchObject({ id: eth0.id, name: 'eth0' });
    const bad = await t.patch(`/api/virtualization/interfaces/${sub.id}/`, { parent: foreign.id, bridge: sub.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      parent: [`The selected parent interface (ens3) belongs to a different virtual machine (${other.name}).`],
      bridge: ['An interface cannot be its own bridge.'],
    });
  });

  it("takes VLANs of the VM's site or global ones, tagged ones in tagged mode only", async () => {
    const local = await make(t, '/api/ipam/vlans/', { vid: 10, name: uniq('v'), site: site.id });
    const global = await make(t, '/api/ipam/vlans/', { vid: 20, name: uniq('v') });
    const remote = await make(t, '/api/ipam/vlans/', { vid: 30, name: uniq('v'), site: (await makeSite(t)).id });
    const i = await makeVmInterface(t, vm);
    const url = `/api/virtualization/interfaces/${i.id}/`;
    const wrongSite = await t.patch(url, { mode: 'access', untagged_vlan: remote.id });
    expect(wrongSite.statusCode).toBe(400);
    expect(Object.keys(wrongSite.json())).toEqual(['untagged_vlan']);
    const notTagged = await t.patch(url, { mode: 'access', tagged_vlans: [global.id] });
    expect(notTagged.json()).toEqual({
      tagged_vlans: ['Tagged VLANs can be set only when the 802.1Q mode is tagged.'],
    });
    const tagged = await t.patch(url, { mode: 'tagged', untagged_vlan: local.id, tagged_vlans: [global.id] });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(tagged.json().tagged_vlans.map((v: Json) => v.id)).toEqual([global.id]);
    expect(await ifaces(`vlan_id=${global.id}`)).toEqual([i.id]);
    expect(await ifaces(`vlan_id=${local.id}`)).toEqual([i.id]);
    expect(await ifaces(`vlan=20`)).toEqual([i.id]);
    // leaving tagged mode drops the tagged VLANs; no mode drops the untagged one
    const access = await t.patch(url, { mode: 'access' });
    expect(access.json()).toMatchObject({ tagged_vlans: [], untagged_vlan: { id: local.id } });
    expect((await t.patch(url, { mode: '' })).json()).toMatchObject({ mode: null, untagged_vlan: null });
    // a VM without a site takes global VLANs only
    const siteless = await makeVmInterface(t, await makeVm(t));
    const res = await t.patch(`/api/virtualization/interfaces/${siteless.id}/`, {
      mode: 'access',
      untagged_vlan: local.id,
    });
    expect(Object.keys(res.json())).toEqual(['untagged_vlan']);
  });

  it('refuses a bad MTU or MAC address', async () => {
    const res = await t.post('/api/virtualization/interfaces/', {
      virtual_machine: vm.id,
      name: uniq('e'),
      mtu: 70000,
      mac_address: 'nope',
    });
    expect(res.json()).toEqual({
      mtu: ['Ensure this value is less than or equal to 65536.'],
      mac_address: ['Invalid MAC address format: nope'],
    });
  });
});

describe('filters', () => {
  it('filters interfaces by VM, cluster, MAC, MTU, enabled, parent', async () => {
    expect(await ifaces(`virtual_machine_id=${vm.id}&name=eth0`)).toEqual([eth0.id]);
    expect(await ifaces(`virtual_machine=${vm.name}&name=eth0`)).toEqual([eth0.id]);
    expect(await ifaces(`cluster_id=${vm.cluster.id}&name=eth0`)).toEqual([eth0.id]);
    expect(await ifaces('mac_address=00:11:22:33:44:55')).toEqual([eth0.id]);
    expect(await ifaces(`virtual_machine_id=${vm.id}&mtu__gte=9000`)).toEqual([eth0.id]);
    expect(await ifaces(`parent_id=${eth0.id}`)).toHaveLength(1);
    expect((await t.get('/api/virtualization/interfaces/?virtual_machine_id=abc')).statusCode).toBe(400);
  });

  it('filters addresses by VM and VM interface', async () => {
    const addrs = async (q: string) => ids((await t.get(`/api/ipam/ip-addresses/?${q}`)).json());
    expect(await addrs(`virtual_machine_id=${vm.id}`)).toEqual([ip.id]);
    expect(await addrs(`virtual_machine=${vm.name}`)).toEqual([ip.id]);
    expect(await addrs(`vminterface_id=${eth0.id}`)).toEqual([ip.id]);
    expect(await addrs(`vminterface=eth0&parent=203.0.113.0/24`)).toEqual([ip.id]);
    expect(await addrs(`vminterface_id__n=${eth0.id}&parent=203.0.113.0/24`)).toEqual([]);
    expect(await addrs('assigned_to_interface=true&parent=203.0.113.0/24')).toEqual([ip.id]);
    expect((await t.get('/api/ipam/ip-addresses/?vminterface_id=999999')).statusCode).toBe(400);
  });
});

describe('assignment (generic relation)', () => {
  it('needs both halves, an allowed type and an existing interface', async () => {
    const half = await t.post('/api/ipam/ip-addresses/', {
      address: '203.0.113.9/24',
      assigned_object_type: 'virtualization.vminterface',
    });
    expect(half.statusCode).toBe(400);
    expect(half.json()).toEqual({ assigned_object_id: ['This field cannot be null.'] });
    const otherHalf = await t.post('/api/ipam/ip-addresses/', {
      address: '203.0.113.9/24',
      assigned_object_id: eth0.id,
    });
    expect(otherHalf.json()).toEqual({ assigned_object_type: ['This field cannot be null.'] });
    const missing = await t.post('/api/ipam/ip-addresses/', {
      address: '203.0.113.9/24',
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: 999999,
    });
    expect(missing.json()).toEqual({
      assigned_object_id: ['Related object not found using the provided value: 999999.'],
    });
    const wrongType = await t.post('/api/ipam/ip-addresses/', {
      address: '203.0.113.9/24',
      assigned_object_type: 'virtualization.virtualmachine',
      assigned_object_id: vm.id,
    });
    expect(wrongType.json()).toEqual({ assigned_object_type: ['Invalid content type: virtualization.virtualmachine'] });
  });
});

describe('primary addresses of a VM', () => {
  it('accepts addresses of its interfaces (or their NAT outside), of the right family', async () => {
    const v6 = await make(t, '/api/ipam/ip-addresses/', { address: '2001:db8::5/64', ...onVmInterface(eth0) });
    const outside = await make(t, '/api/ipam/ip-addresses/', { address: '192.0.2.50/32', nat_inside: ip.id });
    const url = `/api/virtualization/virtual-machines/${vm.id}/`;
    const ok = await t.patch(url, { primary_ip4: ip.id, primary_ip6: v6.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      primary_ip4: { id: ip.id, address: '203.0.113.5/24' },
      primary_ip6: { id: v6.id },
      primary_ip: { id: v6.id },
    });
    expect((await t.patch(url, { primary_ip4: outside.id })).statusCode).toBe(200);
    const family = await t.patch(url, { primary_ip4: v6.id });
    expect(family.json()).toEqual({ primary_ip4: ['2001:db8::5/64 is not an IPv4 address.'] });
    const elsewhere = await make(t, '/api/ipam/ip-addresses/', {
      address: '203.0.113.99/24',
      ...onVmInterface(await makeVmInterface(t, await makeVm(t))),
    });
    const foreign = await t.patch(url, { primary_ip4: elsewhere.id });
    expect(foreign.json()).toEqual({
      primary_ip4: ['The specified IP address (203.0.113.99/24) is not assigned to this VM.'],
    });
    expect(ids((await t.get(`/api/virtualization/virtual-machines/?has_primary_ip=true&id=${vm.id}`)).json())).toEqual([
      vm.id,
    ]);
    expect(ids((await t.get(`/api/virtualization/virtual-machines/?primary_ip6_id=${v6.id}`)).json())).toEqual([vm.id]);
  });

  it('refuses a primary address on a new VM (it has no interfaces yet)', async () => {
    const res = await t.post('/api/virtualization/virtual-machines/', {
      name: uniq('vm'),
      site: site.id,
      primary_ip4: ip.id,
    });
    expect(res.json()).toEqual({
      primary_ip4: ['The specified IP address (203.0.113.5/24) is not assigned to this VM.'],
    });
  });

  it('loses the primary address when its interface is deleted, since the address goes with it (NetBox GenericRelation)', async () => {
    const host = await makeVm(t);
    const i = await makeVmInterface(t, host);
    const a = await make(t, '/api/ipam/ip-addresses/', { address: '198.18.0.1/24', ...onVmInterface(i) });
    await t.patch(`/api/virtualization/virtual-machines/${host.id}/`, { primary_ip4: a.id });
    const res = await t.del(`/api/virtualization/interfaces/${i.id}/`);
    expect(res.statusCode).toBe(204);
    expect((await t.get(`/api/ipam/ip-addresses/${a.id}/`)).statusCode).toBe(404);
    expect((await t.get(`/api/virtualization/virtual-machines/${host.id}/`)).json()).toMatchObject({
      primary_ip4: null,
      primary_ip: null,
    });
  });
});
