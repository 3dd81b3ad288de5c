/**
 * Component templates (NetBox 3.4 ComponentTemplateModel and its kinds): their rules, filters and
 * forms, the device type's template counts, and the components a new device gets from them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, ids, type Json, make, makeDevice, makeDeviceType, makeModuleType } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const tpl = (path: string, data: Json) => make(t, `/api/dcim/${path}/`, data);

describe('component templates', () => {
  it('belong to exactly one of a device type and a module type', async () => {
    const [dt, mt] = [await makeDeviceType(t), await makeModuleType(t)];
    const both = await t.post('/api/dcim/console-port-templates/', {
      device_type: dt.id,
      module_type: mt.id,
      name: 'con0',
    });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({
      __all__: ['A component template cannot be associated with both a device type and a module type.'],
    });
    const none = await t.post('/api/dcim/console-port-templates/', { name: 'con0' });
    expect(none.json()).toEqual({
      __all__: ['A component template must be associated with either a device type or a module type.'],
    });
    const ok = await tpl('console-port-templates', {
      module_type: mt.id,
      name: 'con{module}',
      type: 'rj-45',
      label: 'Console',
    });
    expect(ok).toMatchObject({
      device_type: null,
      module_type: { id: mt.id, model: mt.model },
      name: 'con{module}',
      display: 'con{module} (Console)',
    });
    expect(ok.type).toEqual({ value: 'rj-45', label: 'RJ-45' });
  });

  it('keep names unique per type, cannot move to another type, and filter by devicetype_id / moduletype_id', async () => {
    const [dt, dt2, mt] = [await makeDeviceType(t), await makeDeviceType(t), await makeModuleType(t)];
    const a = await tpl('interface-templates', { device_type: dt.id, name: 'eth1', type: '1000base-t' });
    const b = await tpl('interface-templates', { module_type: mt.id, name: 'eth1', type: '1000base-t' });
    const dup = await t.post('/api/dcim/interface-templates/', { device_type: dt.id, name: 'eth1', type: 'virtual' });
    expect(dup.json()).toEqual({ __all__: ['Interface template with this Device type and Name already exists.'] });
    const moved = await t.patch(`/api/dcim/interface-templates/${a.id}/`, { device_type: dt2.id });
    expect(moved.json()).toEqual({ device_type: ['Component templates cannot be moved to a different device type.'] });
    expect(ids(await get(`/api/dcim/interface-templates/?devicetype_id=${dt.id}`))).toEqual([a.id]);
    expect(ids(await get(`/api/dcim/interface-templates/?moduletype_id=${mt.id}`))).toEqual([b.id]);
    expect((await get(`/api/dcim/interface-templates/?moduletype_id=${mt.id}&brief=1`)).results).toEqual([
      {
        id: b.id,
        url: expect.stringContaining(`/api/dcim/interface-templates/${b.id}/`),
        display: 'eth1',
        name: 'eth1',
      },
    ]);
  });
});

describe('template rules of each kind', () => {
  it('power ports: allocated draw within the maximum; outlets: a power port of the same type', async () => {
    const [dt, other] = [await makeDeviceType(t), await makeDeviceType(t)];
    const over = await t.post('/api/dcim/power-port-templates/', {
      device_type: dt.id,
      name: 'psu0',
      maximum_draw: 100,
      allocated_draw: 200,
    });
    expect(over.json()).toEqual({ allocated_draw: ['Allocated draw cannot exceed the maximum draw (100W).'] });
    const pp = await tpl('power-port-templates', {
      device_type: dt.id,
      name: 'psu0',
      type: 'iec-60320-c14',
      maximum_draw: 200,
      allocated_draw: 100,
    });
    const foreign = await tpl('power-port-templates', { device_type: other.id, name: 'psu9' });
    const bad = await t.post('/api/dcim/power-outlet-templates/', {
      device_type: dt.id,
      name: 'out1',
      power_port: foreign.id,
    });
    expect(bad.json()).toEqual({ __all__: ['Parent power port (psu9) must belong to the same device type'] });
    const out = await tpl('power-outlet-templates', {
      device_type: dt.id,
      name: 'out1',
      power_port: pp.id,
      feed_leg: 'A',
      type: 'iec-60320-c13',
    });
    expect(out.power_port).toMatchObject({ id: pp.id, name: 'psu0' });
    expect(out.feed_leg).toEqual({ value: 'A', label: 'A' });
    const leg = await t.post('/api/dcim/power-outlet-templates/', { device_type: dt.id, name: 'out2', feed_leg: 'D' });
    expect(leg.json().feed_leg[0]).toMatch(/^"?D"? is not a valid choice\.$/);
  });

  it('front ports: a rear port of the same type, a position it has, taken once', async () => {
    const [dt, other] = [await makeDeviceType(t), await makeDeviceType(t)];
    const rear = await tpl('rear-port-templates', { device_type: dt.id, name: 'rear1', type: '8p8c', positions: 2 });
    const foreign = await tpl('rear-port-templates', { device_type: other.id, name: 'rear9', type: '8p8c' });
    const post = (data: Json) =>
      t.post('/api/dcim/front-port-templates/', { device_type: dt.id, type: '8p8c', ...data });
    expect((await post({ name: 'f1', rear_port: foreign.id })).json()).toEqual({
      __all__: ['Rear port (rear9) must belong to the same device type'],
    });
    expect((await post({ name: 'f1', rear_port: rear.id, rear_port_position: 3 })).json()).toEqual({
      __all__: ['Invalid rear port position (3); rear port rear1 has only 2 positions'],
    });
    expect((await post({ name: 'f1', rear_port: rear.id, rear_port_position: 2 })).statusCode).toBe(201);
    expect((await post({ name: 'f2', rear_port: rear.id, rear_port_position: 2 })).json()).toEqual({
      __all__: ['Front port template with this Rear port and Rear port position already exists.'],
    });
    expect((await post({ name: 'f3' })).json()).toEqual({ rear_port: ['This field is required.'] });
    expect(
      (
        await t.post('/api/dcim/rear-port-templates/', {
          device_type: dt.id,
          name: 'r2',
          type: '8p8c',
          positions: 1025,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('interfaces: a bridge of the same type (not itself), a wireless role on wireless types only', async () => {
    const [dt, other] = [await makeDeviceType(t), await makeDeviceType(t)];
    const br = await tpl('interface-templates', { device_type: dt.id, name: 'br0', type: 'bridge' });
    const foreign = await tpl('interface-templates', { device_type: other.id, name: 'br9', type: 'bridge' });
    const post = (data: Json) =>
      t.post('/api/dcim/interface-templates/', { device_type: dt.id, type: '1000base-t', ...data });
    expect((await post({ name: 'e1', bridge: foreign.id })).json()).toEqual({
      bridge: ['Bridge interface (br9) must belong to the same device type'],
    });
    expect((await t.patch(`/api/dcim/interface-templates/${br.id}/`, { bridge: br.id })).json()).toEqual({
      bridge: ['An interface cannot be bridged to itself.'],
    });
    expect((await post({ name: 'e1', rf_role: 'ap' })).json()).toEqual({
      rf_role: ['Wireless role may be set only on wireless interfaces.'],
    });
    const wifi = await tpl('interface-templates', {
      device_type: dt.id,
      name: 'wlan0',
      type: 'ieee802.11ac',
      rf_role: 'ap',
      enabled: false,
      bridge: br.id,
    });
    expect(wifi).toMatchObject({
      enabled: false,
      mgmt_only: false,
      rf_role: { value: 'ap', label: 'Access point' },
      bridge: { id: br.id, name: 'br0' },
    });
    expect(ids(await get(`/api/dcim/interface-templates/?devicetype_id=${dt.id}&bridge_id=${br.id}`))).toEqual([
      wifi.id,
    ]);
    expect(ids(await get(`/api/dcim/interface-templates/?devicetype_id=${dt.id}&enabled=false`))).toEqual([wifi.id]);
  });

  it('module bays and device bays: device types only; device bays only on parent types', async () => {
    const [mt, child, parent] = [
      await makeModuleType(t),
      await makeDeviceType(t),
      await makeDeviceType(t, { subdevice_role: 'parent' }),
    ];
    const onModule = await t.post('/api/dcim/module-bay-templates/', { module_type: mt.id, name: 'bay1' });
    expect(onModule.json()).toEqual({ device_type: ['This field is required.'] });
    const mb = await tpl('module-bay-templates', { device_type: child.id, name: 'bay1', position: '1' });
    expect(mb).toMatchObject({ device_type: { id: child.id }, position: '1' });
    expect(mb).not.toHaveProperty('module_type');
    const db = await t.post('/api/dcim/device-bay-templates/', { device_type: child.id, name: 'slot1' });
    expect(db.json()).toEqual({
      __all__: [`Subdevice role of device type (${child.model}) must be set to "parent" to allow device bays.`],
    });
    expect(
      (await t.post('/api/dcim/device-bay-templates/', { device_type: parent.id, name: 'slot1' })).statusCode,
    ).toBe(201);
  });

  it('counts on the device type and has-templates filters', async () => {
    const dt = await makeDeviceType(t);
    const bare = await makeDeviceType(t);
    await tpl('console-port-templates', { device_type: dt.id, name: 'con0' });
    await tpl('interface-templates', { device_type: dt.id, name: 'e0', type: '1000base-t' });
    await tpl('interface-templates', { device_type: dt.id, name: 'e1', type: '1000base-t' });
    const rear = await tpl('rear-port-templates', { device_type: dt.id, name: 'r', type: '8p8c' });
    await tpl('front-port-templates', { device_type: dt.id, name: 'f', type: '8p8c', rear_port: rear.id });
    const body = await get(`/api/dcim/device-types/${dt.id}/`);
    expect(body).toMatchObject({
      console_port_template_count: 1,
      console_server_port_template_count: 0,
      interface_template_count: 2,
      front_port_template_count: 1,
      rear_port_template_count: 1,
      power_port_template_count: 0,
      module_bay_template_count: 0,
    });
    const only = (q: string) => get(`/api/dcim/device-types/?id=${dt.id}&id=${bare.id}&${q}`).then(ids);
    expect(await only('interfaces=true')).toEqual([dt.id]);
    expect(await only('interfaces=false')).toEqual([bare.id]);
    expect(await only('pass_through_ports=true')).toEqual([dt.id]);
    expect(await only('power_ports=true')).toEqual([]);
  });
});

describe("a new device gets its type's components", () => {
  it("interfaces with their attributes and bridges, logged under the device create's request", async () => {
    const dt = await makeDeviceType(t);
    const br = await tpl('interface-templates', { device_type: dt.id, name: 'br0', type: 'bridge' });
    await tpl('interface-templates', {
      device_type: dt.id,
      name: 'eth10',
      type: '10gbase-x-sfpp',
      mgmt_only: true,
      enabled: false,
      label: 'L',
      bridge: br.id,
      description: 'not copied',
    });
    await tpl('interface-templates', {
      device_type: dt.id,
      name: 'eth2',
      type: '1000base-t',
      poe_mode: 'pse',
      poe_type: 'type1-ieee802.3af',
    });
    const res = await t.post('/api/dcim/devices/', {
      name: uniq('dev'),
      device_type: dt.id,
      site: (await make(t, '/api/dcim/sites/', { name: uniq('s'), slug: uniq('s') })).id,
      device_role: (await make(t, '/api/dcim/device-roles/', { name: uniq('r'), slug: uniq('r') })).id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const device = res.json();
    const list = (await get(`/api/dcim/interfaces/?device_id=${device.id}`)).results as Json[];
    expect(list.map((i) => i.name)).toEqual(['br0', 'eth2', 'eth10']);
    const [bridge, eth2, eth10] = list;
    expect(eth10).toMatchObject({
      label: 'L',
      enabled: false,
      mgmt_only: true,
      description: '',
      bridge: { id: bridge!.id },
    });
    expect(eth10!.type.value).toBe('10gbase-x-sfpp');
    expect(eth2).toMatchObject({ poe_mode: { value: 'pse' }, poe_type: { value: 'type1-ieee802.3af' }, bridge: null });
    const requestId = res.headers['x-request-id'];
    const changes = (await get(`/api/extras/object-changes/?request_id=${requestId}&limit=100`)).results as Json[];
    const summary = changes.map((c) => `${c.action.value} ${c.changed_object_type} ${c.changed_object_id}`).sort();
    expect(summary).toEqual(
      [
        `create dcim.device ${device.id}`,
        ...list.map((i) => `create dcim.interface ${i.id}`),
        // NetBox 3.7 update_interface_bridges(): the bridge is set by a save of its own
        `update dcim.interface ${eth10!.id}`,
      ].sort(),
    );
    const created = changes.find((c) => c.changed_object_id === eth2!.id)!;
    expect(created.related_object_type).toBe('dcim.device');
    expect(created.related_object_id).toBe(device.id);
    expect(created.postchange_data).toMatchObject({ name: 'eth2', device: device.id, type: '1000base-t' });
  });

  it('every kind: ports, outlets on their power port, front ports on their rear port, bays, the inventory tree', async () => {
    const dt = await makeDeviceType(t, { subdevice_role: 'parent' });
    const on = { device_type: dt.id };
    await tpl('console-port-templates', { ...on, name: 'con0', type: 'rj-45' });
    await tpl('console-server-port-templates', { ...on, name: 'cs0', type: 'rj-45', label: 'CS' });
    const psu = await tpl('power-port-templates', { ...on, name: 'PSU1', maximum_draw: 300, allocated_draw: 200 });
    await tpl('power-outlet-templates', { ...on, name: 'out1', power_port: psu.id, feed_leg: 'B' });
    const eth = await tpl('interface-templates', { ...on, name: 'eth0', type: '1000base-t' });
    const rear = await tpl('rear-port-templates', { ...on, name: 'rear1', type: 'lc', positions: 4, color: 'ff0000' });
    await tpl('front-port-templates', { ...on, name: 'front3', type: 'lc', rear_port: rear.id, rear_port_position: 3 });
    await tpl('module-bay-templates', { ...on, name: 'Slot 1', position: '1' });
    await tpl('device-bay-templates', { ...on, name: 'Bay 1' });
    const role = await make(t, '/api/dcim/inventory-item-roles/', { name: uniq('ir'), slug: uniq('ir') });
    const chassis = await tpl('inventory-item-templates', { ...on, name: 'Chassis', role: role.id, part_id: 'CH-1' });
    const card = await tpl('inventory-item-templates', {
      ...on,
      name: 'Card',
      parent: chassis.id,
      component_type: 'dcim.interfacetemplate',
      component_id: eth.id,
    });
    await tpl('inventory-item-templates', { ...on, name: 'Optic', parent: card.id });
    expect(card).toMatchObject({ parent: chassis.id, _depth: 1, component: { id: eth.id, name: 'eth0' } });
    // the component template must exist and be on the same device type
    const elsewhere = await tpl('interface-templates', {
      device_type: (
        await make(t, '/api/dcim/device-types/', {
          manufacturer: dt.manufacturer.id,
          model: uniq('dt'),
          slug: uniq('dt'),
        })
      ).id,
      name: 'eth9',
      type: '1000base-t',
    });
    const foreign = await t.post('/api/dcim/inventory-item-templates/', {
      ...on,
      name: 'Stray',
      component_type: 'dcim.interfacetemplate',
      component_id: elsewhere.id,
    });
    expect(foreign.json()).toEqual({ component_id: ['The component template must belong to the same device type.'] });
    const gone = await t.post('/api/dcim/inventory-item-templates/', {
      ...on,
      name: 'Stray',
      component_type: 'dcim.interfacetemplate',
      component_id: 99999999,
    });
    expect(gone.json()).toEqual({ component_id: ['Related object not found using the provided value: 99999999.'] });
    const half = await t.post('/api/dcim/inventory-item-templates/', {
      ...on,
      name: 'Stray',
      component_type: 'dcim.interfacetemplate',
    });
    expect(half.statusCode).toBe(400);
    expect((await get(`/api/dcim/device-types/${dt.id}/`)).inventory_item_template_count).toBe(3);

    const d = await makeDevice(t, { device_type: dt.id });
    const one = async (path: string) => {
      const list = (await get(`/api/dcim/${path}/?device_id=${d.id}`)).results as Json[];
      expect(list, path).toHaveLength(1);
      return list[0]!;
    };
    expect(await one('console-ports')).toMatchObject({ name: 'con0', type: { value: 'rj-45' }, module: null });
    expect(await one('console-server-ports')).toMatchObject({ name: 'cs0', label: 'CS' });
    const port = await one('power-ports');
    expect(port).toMatchObject({ name: 'PSU1', maximum_draw: 300, allocated_draw: 200 });
    expect(await one('power-outlets')).toMatchObject({
      name: 'out1',
      power_port: { id: port.id },
      feed_leg: { value: 'B' },
    });
    const iface = await one('interfaces');
    const rp = await one('rear-ports');
    expect(rp).toMatchObject({ name: 'rear1', positions: 4, color: 'ff0000' });
    expect(await one('front-ports')).toMatchObject({ name: 'front3', rear_port: { id: rp.id }, rear_port_position: 3 });
    expect(await one('module-bays')).toMatchObject({ name: 'Slot 1', position: '1' });
    expect(await one('device-bays')).toMatchObject({ name: 'Bay 1' });
    const items = (await get(`/api/dcim/inventory-items/?device_id=${d.id}`)).results as Json[];
    const byName = new Map(items.map((i) => [i.name, i]));
    // the parent as an id (NetBox 3.4 PrimaryKeyRelatedField) or nested
    const parentOf = (name: string) => {
      const p = byName.get(name)!.parent;
      return p !== null && typeof p === 'object' ? p.id : p;
    };
    expect(byName.get('Chassis')).toMatchObject({ role: { id: role.id }, part_id: 'CH-1' });
    expect(parentOf('Chassis')).toBeNull();
    expect(byName.get('Card')).toMatchObject({ component_type: 'dcim.interface', component_id: iface.id });
    expect(parentOf('Card')).toBe(byName.get('Chassis')!.id);
    expect(parentOf('Optic')).toBe(byName.get('Card')!.id);
  });

  it('in a bulk create, each device its own, and only on create', async () => {
    const dt = await makeDeviceType(t);
    for (const n of ['xe-0/0/0', 'xe-0/0/1'])
      await tpl('interface-templates', { device_type: dt.id, name: n, type: '10gbase-x-sfpp' });
    const first = await makeDevice(t, { device_type: dt.id });
    const [site, role] = [first.site.id, first.device_role.id];
    const res = await t.post(
      '/api/dcim/devices/',
      [1, 2, 3].map(() => ({ name: uniq('d'), device_type: dt.id, site, device_role: role })),
    );
    expect(res.statusCode, res.body).toBe(201);
    for (const d of res.json() as Json[]) {
      const names = ((await get(`/api/dcim/interfaces/?device_id=${d.id}`)).results as Json[]).map((i) => i.name);
      expect(names).toEqual(['xe-0/0/0', 'xe-0/0/1']);
    }
    // an update makes nothing more, a template added later changes no existing device
    await tpl('interface-templates', { device_type: dt.id, name: 'xe-0/0/2', type: '10gbase-x-sfpp' });
    expect((await t.patch(`/api/dcim/devices/${first.id}/`, { description: 'x' })).statusCode).toBe(200);
    expect((await get(`/api/dcim/interfaces/?device_id=${first.id}`)).count).toBe(2);
  });

  it('with every custom field of the component at its default (NetBox 3.7)', async () => {
    const name = `cf_${uniq('x').replace(/-/g, '_')}`;
    await make(t, '/api/extras/custom-fields/', {
      content_types: ['dcim.interface'],
      type: 'text',
      name,
      default: 'from-default',
    });
    const dt = await makeDeviceType(t);
    await tpl('interface-templates', { device_type: dt.id, name: 'e0', type: '1000base-t' });
    const d = await makeDevice(t, { device_type: dt.id });
    const [iface] = (await get(`/api/dcim/interfaces/?device_id=${d.id}`)).results as Json[];
    expect(iface!.custom_fields[name]).toBe('from-default');
  });

  it('a bad device in a bulk create leaves no component behind', async () => {
    const dt = await makeDeviceType(t);
    await tpl('interface-templates', { device_type: dt.id, name: 'e0', type: '1000base-t' });
    const before = (await get('/api/dcim/interfaces/?limit=1')).count;
    const first = await makeDevice(t, { device_type: dt.id });
    const res = await t.post('/api/dcim/devices/', [
      { name: uniq('d'), device_type: dt.id, site: first.site.id, device_role: first.device_role.id },
      { name: first.name, device_type: dt.id, site: first.site.id, device_role: first.device_role.id },
    ]);
    expect(res.statusCode).toBe(400);
    expect((await get('/api/dcim/interfaces/?limit=1')).count).toBe(before + 1);
  });
});
