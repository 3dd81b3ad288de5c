/**
 * Device components (NetBox 3.4 ComponentModel kinds): their own rules, filters, cable fields and
 * forms; the device's component counts. The generic behaviour of each is in test/contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, ids, type Json, make, makeDevice, makeDeviceType, makeInterface } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const term = (type: string, o: Json) => [{ object_type: type, object_id: o.id }];

describe('console, console server and power components', () => {
  it('renders choices, the label in display, and keeps names unique per device', async () => {
    const d = await makeDevice(t);
    const c = await make(t, '/api/dcim/console-ports/', {
      device: d.id,
      name: 'con0',
      label: 'Console',
      type: 'rj-45',
      speed: 9600,
    });
    expect(c).toMatchObject({
      display: 'con0 (Console)',
      type: { value: 'rj-45', label: 'RJ-45' },
      speed: { value: 9600, label: '9600 bps' },
      cable: null,
      cable_end: '',
      link_peers: [],
      link_peers_type: null,
      connected_endpoints: null,
      connected_endpoints_type: null,
      connected_endpoints_reachable: null,
      mark_connected: false,
      _occupied: false,
    });
    const dup = await t.post('/api/dcim/console-ports/', { device: d.id, name: 'con0' });
    expect(dup.json()).toEqual({ __all__: ['Console port with this Device and Name already exists.'] });
    expect((await t.post('/api/dcim/console-ports/', { device: d.id, name: 'con1', speed: 1234 })).json()).toEqual({
      speed: ['"1234" is not a valid choice.'],
    });
    const moved = await t.patch(`/api/dcim/console-ports/${c.id}/`, { device: (await makeDevice(t)).id });
    expect(moved.json()).toEqual({ device: ['Components cannot be moved to a different device.'] });
  });

  it('refuses an allocated draw above the maximum, on create and on a later PATCH', async () => {
    const d = await makeDevice(t);
    const bad = await t.post('/api/dcim/power-ports/', {
      device: d.id,
      name: 'PSU0',
      maximum_draw: 400,
      allocated_draw: 500,
    });
    expect(bad.json()).toEqual({ allocated_draw: ['Allocated draw cannot exceed the maximum draw (400W).'] });
    const p = await make(t, '/api/dcim/power-ports/', {
      device: d.id,
      name: 'PSU0',
      type: 'iec-60320-c14',
      maximum_draw: 400,
      allocated_draw: 300,
    });
    const later = await t.patch(`/api/dcim/power-ports/${p.id}/`, { maximum_draw: 200 });
    expect(later.json()).toEqual({ allocated_draw: ['Allocated draw cannot exceed the maximum draw (200W).'] });
  });

  it('feeds an outlet from a power port of its own device only', async () => {
    const pdu = await makeDevice(t);
    const inlet = await make(t, '/api/dcim/power-ports/', { device: pdu.id, name: 'inlet' });
    const foreign = await make(t, '/api/dcim/power-ports/', { device: (await makeDevice(t)).id, name: 'inlet' });
    const o = await make(t, '/api/dcim/power-outlets/', {
      device: pdu.id,
      name: 'out1',
      type: 'iec-60320-c13',
      power_port: inlet.id,
      feed_leg: 'A',
    });
    expect(o.power_port).toMatchObject({ id: inlet.id, name: 'inlet', cable: null, _occupied: false });
    expect(o.feed_leg).toEqual({ value: 'A', label: 'A' });
    const bad = await t.post('/api/dcim/power-outlets/', { device: pdu.id, name: 'out2', power_port: foreign.id });
    expect(bad.json()).toEqual({ __all__: ['Parent power port (inlet) must belong to the same device'] });
    expect(ids(await get(`/api/dcim/power-outlets/?device_id=${pdu.id}&feed_leg=A`))).toEqual([o.id]);
    expect(ids(await get(`/api/dcim/power-outlets/?device_id=${pdu.id}&feed_leg=B`))).toEqual([]);
  });

  it('cables a console port to a console server port: cable fields on both, and the cabled / occupied / connected filters', async () => {
    const [dev, cs] = [await makeDevice(t), await makeDevice(t)];
    const con = await make(t, '/api/dcim/console-ports/', { device: dev.id, name: 'console' });
    const port = await make(t, '/api/dcim/console-server-ports/', { device: cs.id, name: 'port1' });
    const spare = await make(t, '/api/dcim/console-server-ports/', {
      device: cs.id,
      name: 'port2',
      mark_connected: true,
    });
    const cable = await make(t, '/api/dcim/cables/', {
      a_terminations: term('dcim.consoleport', con),
      b_terminations: term('dcim.consoleserverport', port),
    });
    const c = await get(`/api/dcim/console-ports/${con.id}/`);
    expect(c).toMatchObject({
      cable: { id: cable.id },
      cable_end: 'A',
      link_peers_type: 'dcim.consoleserverport',
      _occupied: true,
    });
    expect(c.link_peers.map((p: Json) => p.id)).toEqual([port.id]);
    // a console server port's nested form is NetBox 3.4's: the cable as an id, and _occupied
    expect(Object.keys(c.link_peers[0]).sort()).toEqual([
      '_occupied',
      'cable',
      'device',
      'display',
      'id',
      'name',
      'url',
    ]);
    expect(c.link_peers[0]).toMatchObject({ cable: cable.id, _occupied: true });
    const s = await get(`/api/dcim/console-server-ports/${port.id}/`);
    expect(s).toMatchObject({ cable_end: 'B', link_peers_type: 'dcim.consoleport' });
    expect(s.connected_endpoints.map((p: Json) => p.id)).toEqual([con.id]);
    expect(s.connected_endpoints_reachable).toBe(true);
    const list = (q: string) => get(`/api/dcim/console-server-ports/?device_id=${cs.id}&${q}&ordering=name`).then(ids);
    expect(await list('cabled=true')).toEqual([port.id]);
    expect(await list('cabled=false')).toEqual([spare.id]);
    expect(await list('occupied=true')).toEqual([port.id, spare.id]);
    expect(await list('connected=true')).toEqual([port.id]);
    expect((await t.del(`/api/dcim/cables/${cable.id}/`)).statusCode).toBe(204);
    expect(await get(`/api/dcim/console-ports/${con.id}/`)).toMatchObject({
      cable: null,
      cable_end: '',
      link_peers: [],
      _occupied: false,
    });
  });
});

describe('front and rear ports', () => {
  it('maps a front port to a position of a rear port on the same device, each position once', async () => {
    const panel = await makeDevice(t);
    const rear = await make(t, '/api/dcim/rear-ports/', { device: panel.id, name: 'rear1', type: 'mpo', positions: 2 });
    expect(rear).toMatchObject({ positions: 2, type: { value: 'mpo', label: 'MPO' }, color: '' });
    expect(rear).not.toHaveProperty('connected_endpoints');
    const f1 = await make(t, '/api/dcim/front-ports/', {
      device: panel.id,
      name: 'front1',
      type: 'lc',
      rear_port: rear.id,
      rear_port_position: 1,
    });
    expect(f1.rear_port).toMatchObject({ id: rear.id, name: 'rear1' });
    expect(f1).not.toHaveProperty('connected_endpoints');
    const taken = await t.post('/api/dcim/front-ports/', {
      device: panel.id,
      name: 'front2',
      type: 'lc',
      rear_port: rear.id,
      rear_port_position: 1,
    });
    expect(taken.json()).toEqual({
      __all__: ['Front port with this Rear port and Rear port position already exists.'],
    });
    const beyond = await t.post('/api/dcim/front-ports/', {
      device: panel.id,
      name: 'front3',
      type: 'lc',
      rear_port: rear.id,
      rear_port_position: 3,
    });
    expect(beyond.json()).toEqual({
      rear_port_position: ['Invalid rear port position (3): Rear port rear1 has only 2 positions'],
    });
    const other = await makeDevice(t);
    const foreign = await t.post('/api/dcim/front-ports/', {
      device: other.id,
      name: 'front1',
      type: 'lc',
      rear_port: rear.id,
      rear_port_position: 2,
    });
    expect(foreign.json()).toEqual({ rear_port: ['Rear port (rear1) must belong to the same device'] });
    await make(t, '/api/dcim/front-ports/', {
      device: panel.id,
      name: 'front2',
      type: 'lc',
      rear_port: rear.id,
      rear_port_position: 2,
    });
    const fewer = await t.patch(`/api/dcim/rear-ports/${rear.id}/`, { positions: 1 });
    expect(fewer.json()).toEqual({
      positions: ['The number of positions cannot be less than the number of mapped front ports (2)'],
    });
    // deleting the rear port deletes its front ports (NetBox: CASCADE)
    expect((await t.del(`/api/dcim/rear-ports/${rear.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/front-ports/${f1.id}/`)).statusCode).toBe(404);
  });
});

describe('bays', () => {
  it('puts device bays only on parent devices, installs a device once and never into itself', async () => {
    const plain = await makeDevice(t);
    const refused = await t.post('/api/dcim/device-bays/', { device: plain.id, name: 'bay1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().__all__[0]).toMatch(/^This type of device \(.+\) does not support device bays\.$/);
    const chassis = await makeDevice(t, { device_type: (await makeDeviceType(t, { subdevice_role: 'parent' })).id });
    const blade = await makeDevice(t, {
      device_type: (await makeDeviceType(t, { subdevice_role: 'child', u_height: 0 })).id,
    });
    const bay1 = await make(t, '/api/dcim/device-bays/', {
      device: chassis.id,
      name: 'bay1',
      installed_device: blade.id,
    });
    expect(bay1.installed_device).toMatchObject({ id: blade.id, name: blade.name });
    const self = await t.post('/api/dcim/device-bays/', {
      device: chassis.id,
      name: 'bay2',
      installed_device: chassis.id,
    });
    expect(self.json()).toEqual({ __all__: ['Cannot install a device into itself.'] });
    const twice = await t.post('/api/dcim/device-bays/', {
      device: chassis.id,
      name: 'bay2',
      installed_device: blade.id,
    });
    expect(twice.json()).toEqual({
      installed_device: ['Cannot install the specified device; device is already installed in bay1'],
    });
    // the child names its parent and bay (NetBox 3.4 parent_device); the parent filters find it
    const child = await get(`/api/dcim/devices/${blade.id}/`);
    expect(child.parent_device).toMatchObject({
      id: chassis.id,
      name: chassis.name,
      device_bay: { id: bay1.id, name: 'bay1', display: 'bay1' },
    });
    expect(child.parent_device.device_bay.url).toMatch(new RegExp(`/api/dcim/device-bays/${bay1.id}/$`));
    expect((await get(`/api/dcim/devices/${chassis.id}/`)).parent_device).toBeNull();
    expect(ids(await get(`/api/dcim/devices/?parent_device_id=${chassis.id}`))).toEqual([blade.id]);
    expect(
      ids(await get(`/api/dcim/devices/?id=${chassis.id}&id=${blade.id}&parent_device_id__n=${chassis.id}`)),
    ).toEqual([chassis.id]);
    expect(ids(await get(`/api/dcim/devices/?id=${chassis.id}&id=${blade.id}&device_bays=true`))).toEqual([chassis.id]);
    expect(ids(await get(`/api/dcim/devices/?id=${chassis.id}&id=${blade.id}&device_bays=false`))).toEqual([blade.id]);
    // deleting the child frees the bay
    expect((await t.del(`/api/dcim/devices/${blade.id}/`)).statusCode).toBe(204);
    expect((await get(`/api/dcim/device-bays/${bay1.id}/`)).installed_device).toBeNull();
  });

  it('keeps a module bay position and its brief form', async () => {
    const d = await makeDevice(t);
    const bay = await make(t, '/api/dcim/module-bays/', { device: d.id, name: 'Slot 1', position: '1' });
    expect(bay).toMatchObject({ name: 'Slot 1', position: '1', display: 'Slot 1' });
    expect(Object.keys(await get(`/api/dcim/module-bays/${bay.id}/?brief=1`)).sort()).toEqual([
      'display',
      'id',
      'name',
      'url',
    ]);
  });
});

describe('inventory items', () => {
  it('builds a tree on one device, links a component of the same device, and reports depth', async () => {
    const d = await makeDevice(t);
    const role = await make(t, '/api/dcim/inventory-item-roles/', { name: uniq('optic'), slug: uniq('optic') });
    const xe = await makeInterface(t, d, { name: 'xe-0/0/0', type: '10gbase-x-sfpp' });
    const card = await make(t, '/api/dcim/inventory-items/', { device: d.id, name: 'FPC 0' });
    const optic = await make(t, '/api/dcim/inventory-items/', {
      device: d.id,
      parent: card.id,
      name: 'SFP+ 0',
      role: role.id,
      component_type: 'dcim.interface',
      component_id: xe.id,
      asset_tag: '',
    });
    expect(optic).toMatchObject({
      parent: { id: card.id, _depth: 0 },
      _depth: 1,
      role: { id: role.id },
      component_type: 'dcim.interface',
      component_id: xe.id,
      asset_tag: null,
    });
    expect(optic.component).toMatchObject({ id: xe.id, name: 'xe-0/0/0' });
    expect((await get(`/api/dcim/inventory-item-roles/${role.id}/`)).inventoryitem_count).toBe(1);
    const other = await makeDevice(t);
    const foreignParent = await t.post('/api/dcim/inventory-items/', { device: other.id, name: 'x', parent: card.id });
    expect(foreignParent.json()).toEqual({ parent: ['Parent inventory item does not belong to the same device.'] });
    const foreignComponent = await t.post('/api/dcim/inventory-items/', {
      device: other.id,
      name: 'x',
      component_type: 'dcim.interface',
      component_id: xe.id,
    });
    expect(foreignComponent.json()).toEqual({
      device: ['Cannot assign inventory item to component on another device'],
    });
    const notAComponent = await t.post('/api/dcim/inventory-items/', {
      device: d.id,
      name: 'y',
      component_type: 'dcim.site',
      component_id: 1,
    });
    expect(notAComponent.statusCode).toBe(400);
    expect(notAComponent.json()).toHaveProperty('component_type');
    expect((await t.patch(`/api/dcim/inventory-items/${card.id}/`, { parent: card.id })).json()).toEqual({
      parent: ['Cannot assign self as parent.'],
    });
    expect(ids(await get(`/api/dcim/inventory-items/?device_id=${d.id}&parent_id=${card.id}`))).toEqual([optic.id]);
    // a component's items go with it (Django GenericRelation), and an item's children with it
    const optic2 = await make(t, '/api/dcim/inventory-items/', { device: d.id, parent: card.id, name: 'SFP+ 1' });
    expect((await t.del(`/api/dcim/interfaces/${xe.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/inventory-items/${optic.id}/`)).statusCode).toBe(404);
    expect((await t.del(`/api/dcim/inventory-items/${card.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/inventory-items/${optic2.id}/`)).statusCode).toBe(404);
  });
});

describe('device component counts', () => {
  it('counts each kind of component of each device of a page (NetBox 3.6+)', async () => {
    const [a, b] = [await makeDevice(t), await makeDevice(t)];
    await make(t, '/api/dcim/console-ports/', { device: a.id, name: 'con0' });
    await make(t, '/api/dcim/power-ports/', { device: a.id, name: 'PSU0' });
    await make(t, '/api/dcim/power-ports/', { device: a.id, name: 'PSU1' });
    await makeInterface(t, a);
    const rear = await make(t, '/api/dcim/rear-ports/', { device: b.id, name: 'r', type: '8p8c' });
    await make(t, '/api/dcim/front-ports/', { device: b.id, name: 'f', type: '8p8c', rear_port: rear.id });
    await make(t, '/api/dcim/inventory-items/', { device: b.id, name: 'fan' });
    const page = await get(`/api/dcim/devices/?id=${a.id}&id=${b.id}&ordering=id`);
    const counts = (d: Json) => [
      d.console_port_count,
      d.console_server_port_count,
      d.power_port_count,
      d.power_outlet_count,
      d.interface_count,
      d.front_port_count,
      d.rear_port_count,
      d.device_bay_count,
      d.module_bay_count,
      d.inventory_item_count,
    ];
    expect(page.results.map(counts)).toEqual([
      [1, 0, 2, 0, 1, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 1, 1, 0, 0, 1],
    ]);
    const having = (q: string) => get(`/api/dcim/devices/?id=${a.id}&id=${b.id}&ordering=id&${q}`).then(ids);
    expect(await having('power_ports=true')).toEqual([a.id]);
    expect(await having('console_ports=false')).toEqual([b.id]);
    expect(await having('pass_through_ports=true')).toEqual([b.id]);
    expect(await having('interfaces=true')).toEqual([a.id]);
  });
});

describe('component filters', () => {
  it("filters by the device's site, rack, role, type and virtual chassis", async () => {
    const d = await makeDevice(t);
    const p = await make(t, '/api/dcim/power-ports/', { device: d.id, name: 'PSU0' });
    await make(t, '/api/dcim/power-ports/', { device: (await makeDevice(t)).id, name: 'PSU0' });
    const full = await get(`/api/dcim/devices/${d.id}/`);
    for (const q of [
      `site_id=${full.site.id}`,
      `site=${full.site.slug}`,
      `device_type_id=${full.device_type.id}`,
      `role_id=${full.role.id}`,
      `device=${d.name}`,
    ]) {
      expect(ids(await get(`/api/dcim/power-ports/?${q}`)), q).toEqual([p.id]);
    }
    const vc = await make(t, '/api/dcim/virtual-chassis/', { name: uniq('vc') });
    await t.patch(`/api/dcim/devices/${d.id}/`, { virtual_chassis: vc.id, vc_position: 1 });
    expect(ids(await get(`/api/dcim/power-ports/?virtual_chassis_id=${vc.id}`))).toEqual([p.id]);
  });
});
