/**
 * MAC address objects (NetBox 4.2): /api/dcim/mac-addresses/ in the 4.4 dialect only, an
 * interface's `primary_mac_address` and `mac_addresses` shown in 4.4, and its `mac_address` kept in
 * step with the primary whichever side is written (apps/dcim/mac-address-sync.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDevice, makeInterface, makeVm, makeVmInterface, type Json } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
const MACS = '/api/dcim/mac-addresses/';

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get44 = async (url: string) => (await t.request('GET', url, { headers: V44 })).json();
const send44 = (method: string, url: string, body: unknown) => t.request(method, url, { body, headers: V44 });
const ifaceUrl = (i: Json) => `/api/dcim/interfaces/${i.id}/`;
const changes = async (type: string, id: unknown) =>
  (await t.get(`/api/extras/object-changes/?changed_object_type=${type}&changed_object_id=${id}&ordering=time`)).json()
    .results as Json[];

describe('/api/dcim/mac-addresses/', () => {
  it('is served in 4.4 only, with NetBox 4.4 shapes', async () => {
    const device = await makeDevice(t);
    const iface = await makeInterface(t, device);
    expect((await t.get(MACS)).statusCode).toBe(404);
    const res = await send44('POST', MACS, {
      mac_address: '00-1a-2b-3c-4d-5e',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: iface.id,
      description: 'spare',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mac = res.json();
    expect(mac.mac_address).toBe('00:1A:2B:3C:4D:5E');
    expect(mac.display).toBe('00:1A:2B:3C:4D:5E');
    expect(mac.assigned_object).toMatchObject({ id: iface.id, name: iface.name });
    expect(Object.keys(mac)).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'mac_address',
      'assigned_object_type',
      'assigned_object_id',
      'assigned_object',
      'description',
      'comments',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
    ]);
    const brief = await get44(`${MACS}?brief=1&id=${mac.id}`);
    expect(brief.results[0]).toEqual({
      id: mac.id,
      url: mac.url,
      display: mac.display,
      mac_address: mac.mac_address,
      description: 'spare',
    });
    expect((await t.get(`${MACS}${mac.id}/`)).statusCode).toBe(404);
    // an object that is not an interface cannot hold one
    const bad = await send44('POST', MACS, {
      mac_address: '00:00:00:00:00:01',
      assigned_object_type: 'dcim.device',
      assigned_object_id: device.id,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ assigned_object_type: ['Invalid content type: dcim.device'] });
  });

  it('filters as NetBox 4.4 does', async () => {
    const device = await makeDevice(t);
    const [a, b] = [await makeInterface(t, device), await makeInterface(t, device)];
    const vm = await makeVm(t);
    const vmi = await makeVmInterface(t, vm);
    await t.patch(ifaceUrl(a), { mac_address: '02:00:00:00:0A:01' });
    const loose = await send44('POST', MACS, {
      mac_address: '02:00:00:00:0B:01',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: b.id,
    });
    await t.patch(`/api/virtualization/interfaces/${vmi.id}/`, { mac_address: '02:00:00:00:0C:01' });
    const unassigned = (await send44('POST', MACS, { mac_address: '02:00:00:00:0D:01', description: 'stock' })).json();
    const macsOf = async (query: string) =>
      ((await get44(`${MACS}?${query}`)).results as Json[]).map((m) => m.mac_address).sort();
    expect(await macsOf(`device_id=${device.id}`)).toEqual(['02:00:00:00:0A:01', '02:00:00:00:0B:01']);
    expect(await macsOf(`device=${encodeURIComponent(device.name)}`)).toHaveLength(2);
    expect(await macsOf(`interface_id=${b.id}`)).toEqual(['02:00:00:00:0B:01']);
    expect(await macsOf(`virtual_machine_id=${vm.id}`)).toEqual(['02:00:00:00:0C:01']);
    expect(await macsOf(`vminterface_id=${vmi.id}`)).toEqual(['02:00:00:00:0C:01']);
    expect(await macsOf(`mac_address=02-00-00-00-0b-01`)).toEqual(['02:00:00:00:0B:01']);
    expect(await macsOf(`mac_address__ic=00:0D`)).toEqual(['02:00:00:00:0D:01']);
    expect(await macsOf(`assigned_object_type=dcim.interface&device_id=${device.id}`)).toHaveLength(2);
    expect(await macsOf(`assigned=false&q=02:00:00:00`)).toEqual(['02:00:00:00:0D:01']);
    expect(await macsOf(`primary=true&device_id=${device.id}`)).toEqual(['02:00:00:00:0A:01']);
    expect(await macsOf(`primary=false&device_id=${device.id}`)).toEqual([loose.json().mac_address]);
    expect(await macsOf(`q=stock`)).toEqual([unassigned.mac_address]);
    // NetBox 4.4 interface filters by the primary MAC object, by id or address
    const byPrimary = await get44(`/api/dcim/interfaces/?primary_mac_address=02:00:00:00:0A:01`);
    expect(byPrimary.results.map((i: Json) => i.id)).toEqual([a.id]);
    const unknown = await t.request('GET', `${MACS}?interface_id=987654321`, { headers: V44 });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('an interface and its MAC objects', () => {
  it('shows primary_mac_address and mac_addresses in 4.4, and 3.4 as before', async () => {
    const iface = await makeInterface(t, await makeDevice(t), { mac_address: '00:11:22:33:44:55' });
    expect(iface).not.toHaveProperty('primary_mac_address');
    expect(iface).not.toHaveProperty('mac_addresses');
    expect(iface.mac_address).toBe('00:11:22:33:44:55');
    const now = await get44(ifaceUrl(iface));
    const keys = Object.keys(now);
    expect(keys.slice(keys.indexOf('mtu'), keys.indexOf('mtu') + 4)).toEqual([
      'mtu',
      'mac_address',
      'primary_mac_address',
      'mac_addresses',
    ]);
    expect(now.primary_mac_address).toEqual({
      id: expect.any(Number),
      url: expect.stringContaining(MACS),
      display: '00:11:22:33:44:55',
      mac_address: '00:11:22:33:44:55',
      description: '',
    });
    expect(now.mac_addresses).toEqual([now.primary_mac_address]);
    const list = await get44(`/api/dcim/interfaces/?id=${iface.id}`);
    expect(list.results[0].mac_addresses).toEqual([now.primary_mac_address]);
  });

  it('keeps mac_address and the primary in step, whichever is written', async () => {
    const iface = await makeInterface(t, await makeDevice(t));
    // 3.4 writes mac_address: a MAC object is made and becomes the primary, in one change record each
    const set = await t.patch(ifaceUrl(iface), { mac_address: 'aa:bb:cc:00:00:01' });
    expect(set.statusCode, set.body).toBe(200);
    let now = await get44(ifaceUrl(iface));
    const first = now.primary_mac_address;
    expect(first.mac_address).toBe('AA:BB:CC:00:00:01');
    const logged = await changes('dcim.interface', iface.id);
    expect(logged.at(-1)!.postchange_data).toMatchObject({
      mac_address: 'AA:BB:CC:00:00:01',
      primary_mac_address: first.id,
    });
    expect((await changes('dcim.macaddress', first.id)).map((c) => c.action.value)).toEqual(['create']);
    // writing it again changes the primary's address, not a new object
    await send44('PATCH', ifaceUrl(iface), { mac_address: 'aa:bb:cc:00:00:02' });
    now = await get44(ifaceUrl(iface));
    expect(now.primary_mac_address).toMatchObject({ id: first.id, mac_address: 'AA:BB:CC:00:00:02' });
    expect(now.mac_addresses).toHaveLength(1);
    // 4.4 sets another MAC object of the interface as primary: mac_address follows
    const second = (
      await send44('POST', MACS, {
        mac_address: 'aa:bb:cc:00:00:03',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: iface.id,
      })
    ).json();
    const chosen = await send44('PATCH', ifaceUrl(iface), { primary_mac_address: second.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().mac_address).toBe('AA:BB:CC:00:00:03');
    expect((await t.get(ifaceUrl(iface))).json().mac_address).toBe('AA:BB:CC:00:00:03');
    // the primary's address changed at its own endpoint is the interface's too
    await send44('PATCH', `${MACS}${second.id}/`, { mac_address: 'aa:bb:cc:00:00:04' });
    expect((await t.get(ifaceUrl(iface))).json().mac_address).toBe('AA:BB:CC:00:00:04');
    // a primary stays on its interface
    const moved = await send44('PATCH', `${MACS}${second.id}/`, {
      assigned_object_id: null,
      assigned_object_type: null,
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({
      __all__: ['Cannot unassign MAC Address while it is designated as the primary MAC for an object'],
    });
    // deleting it clears the interface's primary and mac_address
    expect((await send44('DELETE', `${MACS}${second.id}/`, undefined)).statusCode).toBe(204);
    now = await get44(ifaceUrl(iface));
    expect(now.primary_mac_address).toBeNull();
    expect(now.mac_address).toBeNull();
    expect(now.mac_addresses.map((m: Json) => m.id)).toEqual([first.id]);
    expect((await changes('dcim.interface', iface.id)).at(-1)!.postchange_data.mac_address).toBeNull();
    // null mac_address leaves no primary; the object stays
    await t.patch(ifaceUrl(iface), { mac_address: 'aa:bb:cc:00:00:02' });
    expect((await get44(ifaceUrl(iface))).primary_mac_address.id).toBe(first.id);
    await t.patch(ifaceUrl(iface), { mac_address: null });
    now = await get44(ifaceUrl(iface));
    expect([now.primary_mac_address, now.mac_addresses.length]).toEqual([null, 1]);
  });

  it('refuses a MAC object of another interface as primary, writing nothing', async () => {
    const device = await makeDevice(t);
    const [a, b] = [await makeInterface(t, device, { label: 'up' }), await makeInterface(t, device)];
    await t.patch(ifaceUrl(a), { mac_address: '00:00:5E:00:53:01' });
    const primary = (await get44(ifaceUrl(a))).primary_mac_address;
    const spare = (
      await send44('POST', MACS, {
        mac_address: '00:00:5E:00:53:02',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: a.id,
      })
    ).json();
    const res = await send44('PATCH', ifaceUrl(b), { primary_mac_address: spare.id, description: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      primary_mac_address: [`MAC address 00:00:5E:00:53:02 is assigned to a different interface (${a.name} (up)).`],
    });
    // another interface's primary is refused by the one-to-one link first (NetBox's unique validator)
    const taken = await send44('PATCH', ifaceUrl(b), { primary_mac_address: primary.id });
    expect(taken.json()).toEqual({ primary_mac_address: ['interface with this primary MAC address already exists.'] });
    const after = await get44(ifaceUrl(b));
    expect([after.primary_mac_address, after.mac_address, after.description]).toEqual([null, null, '']);
    // a bulk create whose second item is bad creates nothing, the MAC objects included
    const before = (await get44(`${MACS}?limit=1`)).count;
    const bulk = await t.post('/api/dcim/interfaces/', [
      { device: device.id, name: 'ok0', type: '1000base-t', mac_address: '00:00:5E:00:53:AA' },
      { device: device.id, name: 'bad0', type: 'nope', mac_address: '00:00:5E:00:53:AB' },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect((await get44(`${MACS}?limit=1`)).count).toBe(before);
  });

  it('assigns an unassigned MAC object made primary, and a VM interface works alike', async () => {
    const vmi = await makeVmInterface(t, await makeVm(t), { mac_address: '10:00:00:00:00:01' });
    const url = `/api/virtualization/interfaces/${vmi.id}/`;
    expect((await get44(url)).primary_mac_address.mac_address).toBe('10:00:00:00:00:01');
    const loose = (await send44('POST', MACS, { mac_address: '10:00:00:00:00:02' })).json();
    const res = await send44('PATCH', url, { primary_mac_address: loose.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.get(url)).json().mac_address).toBe('10:00:00:00:00:02');
    expect((await get44(`${MACS}${loose.id}/`)).assigned_object).toMatchObject({ id: vmi.id });
    // deleting the VM interface deletes its MAC objects
    expect((await t.del(url)).statusCode).toBe(204);
    expect((await get44(`${MACS}?q=10:00:00:00:00`)).count).toBe(0);
  });
});
