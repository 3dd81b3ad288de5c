/**
 * The catalogue's smaller models and what they change on their neighbours: provider accounts (and the
 * circuit's account), virtual disks (and the machine's disk total), virtual device contexts (and
 * the interfaces in them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  make,
  makeDevice,
  makeInterface,
  makeCircuitType,
  makeClusterType,
  makeProvider,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();

describe('provider accounts', () => {
  it("keeps account ids and names unique per provider, and a circuit's account on its provider", async () => {
    const [p1, p2] = [await makeProvider(t), await makeProvider(t)];
    const acct = await make(t, '/api/circuits/provider-accounts/', { provider: p1.id, account: '1234', name: 'main' });
    expect(acct).toMatchObject({ display: '1234 (main)', account: '1234', name: 'main', provider: { id: p1.id } });
    expect((await make(t, '/api/circuits/provider-accounts/', { provider: p1.id, account: '5678' })).display).toBe(
      '5678',
    );
    expect((await t.post('/api/circuits/provider-accounts/', { provider: p1.id, account: '1234' })).json()).toEqual({
      __all__: ['Provider account with this Provider and Account ID already exists.'],
    });
    expect(
      (await t.post('/api/circuits/provider-accounts/', { provider: p1.id, account: '9', name: 'main' })).json(),
    ).toEqual({
      __all__: ['Provider account with this Provider and Name already exists.'],
    });
    await make(t, '/api/circuits/provider-accounts/', { provider: p2.id, account: '1234', name: 'main' });
    const type = await makeCircuitType(t);
    const c = await make(t, '/api/circuits/circuits/', {
      cid: uniq('cid'),
      provider: p1.id,
      provider_account: acct.id,
      type: type.id,
    });
    expect(c.provider_account).toMatchObject({ id: acct.id, account: '1234', name: 'main' });
    expect(ids(await get(`/api/circuits/circuits/?provider_account_id=${acct.id}`))).toEqual([c.id]);
    const foreign = await t.post('/api/circuits/circuits/', {
      cid: uniq('cid'),
      provider: p2.id,
      provider_account: acct.id,
      type: type.id,
    });
    expect(foreign.json()).toEqual({
      provider_account: ['The assigned account must belong to the assigned provider.'],
    });
    // an account in use cannot go (NetBox: PROTECT)
    expect((await t.del(`/api/circuits/provider-accounts/${acct.id}/`)).statusCode).toBe(409);
  });
});

describe('virtual disks', () => {
  it("sets the machine's disk to their total and refuses another figure while it has disks", async () => {
    const ctype = await makeClusterType(t);
    const cluster = await make(t, '/api/virtualization/clusters/', { name: uniq('cl'), type: ctype.id });
    const vm = await make(t, '/api/virtualization/virtual-machines/', {
      name: uniq('vm'),
      cluster: cluster.id,
      disk: 10,
    });
    const d1 = await make(t, '/api/virtualization/virtual-disks/', { virtual_machine: vm.id, name: 'disk1', size: 40 });
    expect(d1).toMatchObject({ display: 'disk1', size: 40, virtual_machine: { id: vm.id } });
    await make(t, '/api/virtualization/virtual-disks/', { virtual_machine: vm.id, name: 'disk2', size: 60 });
    expect((await get(`/api/virtualization/virtual-machines/${vm.id}/`)).disk).toBe(100);
    const wrong = await t.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { disk: 50 });
    expect(wrong.json()).toEqual({
      disk: ['The specified disk size (50) must match the aggregate size of assigned virtual disks (100).'],
    });
    expect((await t.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { disk: null })).json().disk).toBe(100);
    expect((await t.patch(`/api/virtualization/virtual-disks/${d1.id}/`, { size: 20 })).statusCode).toBe(200);
    expect((await get(`/api/virtualization/virtual-machines/${vm.id}/`)).disk).toBe(80);
    expect(
      (await t.post('/api/virtualization/virtual-disks/', { virtual_machine: vm.id, name: 'disk1', size: 1 })).json(),
    ).toEqual({
      __all__: ['Virtual disk with this Virtual machine and Name already exists.'],
    });
    for (const d of (await get(`/api/virtualization/virtual-disks/?virtual_machine_id=${vm.id}`)).results)
      await t.del(`/api/virtualization/virtual-disks/${d.id}/`);
    expect((await get(`/api/virtualization/virtual-machines/${vm.id}/`)).disk).toBeNull();
  });
});

describe('virtual device contexts', () => {
  it('holds interfaces of its device, counts them, and takes primary addresses only from its device', async () => {
    const d = await makeDevice(t);
    const vdc = await make(t, '/api/dcim/virtual-device-contexts/', {
      device: d.id,
      name: 'admin',
      identifier: 1,
      status: 'active',
    });
    expect(vdc).toMatchObject({
      status: { value: 'active', label: 'Active' },
      identifier: 1,
      interface_count: 0,
      primary_ip: null,
    });
    const i = await makeInterface(t, d, { vdcs: [vdc.id] });
    expect(i.vdcs).toEqual([expect.objectContaining({ id: vdc.id, name: 'admin', identifier: 1 })]);
    expect((await get(`/api/dcim/virtual-device-contexts/${vdc.id}/`)).interface_count).toBe(1);
    for (const q of [`vdc_id=${vdc.id}`, 'vdc=admin', 'vdc_identifier=1'])
      expect(ids(await get(`/api/dcim/interfaces/?device_id=${d.id}&${q}`)), q).toEqual([i.id]);
    expect(ids(await get(`/api/dcim/interfaces/?device_id=${d.id}&vdc_id__n=${vdc.id}`))).toEqual([]);
    const ip = await make(t, '/api/ipam/ip-addresses/', {
      address: '10.66.0.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: i.id,
    });
    const foreignIp = await make(t, '/api/ipam/ip-addresses/', {
      address: '10.66.0.2/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: (await makeInterface(t, await makeDevice(t))).id,
    });
    const set = await t.patch(`/api/dcim/virtual-device-contexts/${vdc.id}/`, { primary_ip4: ip.id });
    expect(set.json().primary_ip).toMatchObject({ id: ip.id });
    expect(
      (await t.patch(`/api/dcim/virtual-device-contexts/${vdc.id}/`, { primary_ip4: foreignIp.id })).json(),
    ).toEqual({
      primary_ip4: ['Primary IP address must belong to an interface on the assigned device.'],
    });
    expect((await t.patch(`/api/dcim/virtual-device-contexts/${vdc.id}/`, { primary_ip6: ip.id })).json()).toEqual({
      primary_ip6: ['10.66.0.1/24 is not an IPv6 address.'],
    });
    expect(ids(await get(`/api/dcim/virtual-device-contexts/?device_id=${d.id}&has_primary_ip=true`))).toEqual([
      vdc.id,
    ]);
    expect(
      (
        await t.post('/api/dcim/virtual-device-contexts/', {
          device: d.id,
          name: 'other',
          identifier: 1,
          status: 'active',
        })
      ).json(),
    ).toEqual({
      __all__: ['Virtual device context with this Device and Identifier already exists.'],
    });
  });
});
