/**
 * Module types and modules (NetBox 3.4): installing a module creates its type's components on the
 * device with `{module}` resolved to the bay's position (replicate_components, adopt_components,
 * name clashes as NetBox's ModuleCommonForm answers them); removing it removes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeDevice,
  makeDeviceType,
  makeInterface,
  makeModuleType,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const results = async (url: string) => (await get(url)).results as Json[];
const names = async (path: string, q: string) =>
  (await results(`/api/dcim/${path}/?${q}&limit=200`)).map((r) => r.name);

/** a module type with an interface, a console port, a power port feeding an outlet, and a rear port behind a front port */
async function makeEquippedModuleType(extra: Json = {}): Promise<Json> {
  const mt = await makeModuleType(t, { model: uniq('lc'), ...extra });
  const on = { module_type: mt.id };
  await make(t, '/api/dcim/interface-templates/', {
    ...on,
    name: 'eth{module}/1',
    label: 'Port {module}',
    type: '10gbase-x-sfpp',
  });
  await make(t, '/api/dcim/console-port-templates/', { ...on, name: 'con{module}' });
  const pp = await make(t, '/api/dcim/power-port-templates/', { ...on, name: 'PSU{module}' });
  await make(t, '/api/dcim/power-outlet-templates/', { ...on, name: 'out{module}', power_port: pp.id });
  const rear = await make(t, '/api/dcim/rear-port-templates/', {
    ...on,
    name: 'rear{module}',
    type: 'lc',
    positions: 2,
  });
  await make(t, '/api/dcim/front-port-templates/', {
    ...on,
    name: 'front{module}',
    type: 'lc',
    rear_port: rear.id,
    rear_port_position: 2,
  });
  return mt;
}

/** a device whose type has module bays at positions 1 and 2, and one bay without a position */
async function makeChassis(): Promise<{ device: Json; bays: Json[] }> {
  const dt = await makeDeviceType(t);
  for (const [name, position] of [
    ['Slot 1', '1'],
    ['Slot 2', '2'],
    ['Slot X', ''],
  ]) {
    await make(t, '/api/dcim/module-bay-templates/', { device_type: dt.id, name, position });
  }
  const device = await makeDevice(t, { device_type: dt.id });
  return { device, bays: await results(`/api/dcim/module-bays/?device_id=${device.id}`) };
}

describe('module types', () => {
  it('are unique per manufacturer and filter by the templates they have', async () => {
    const mt = await makeEquippedModuleType();
    const bare = await make(t, '/api/dcim/module-types/', { manufacturer: mt.manufacturer.id, model: uniq('bare') });
    const dup = await t.post('/api/dcim/module-types/', { manufacturer: mt.manufacturer.id, model: mt.model });
    expect(dup.json()).toEqual({ __all__: ['Module type with this Manufacturer and Model already exists.'] });
    expect(mt.display).toBe(mt.model);
    const only = (q: string) => get(`/api/dcim/module-types/?id=${mt.id}&id=${bare.id}&${q}`).then(ids);
    expect(await only('interfaces=true')).toEqual([mt.id]);
    expect(await only('pass_through_ports=false')).toEqual([bare.id]);
    expect(await only(`manufacturer_id=${mt.manufacturer.id}&console_server_ports=true`)).toEqual([]);
    const weight = await t.patch(`/api/dcim/module-types/${bare.id}/`, { weight: 2 });
    expect(weight.json()).toEqual({ weight_unit: ['Must specify a unit when setting a weight'] });
  });
});

describe('installing a module', () => {
  it("creates the type's components on the device with {module} resolved, logged under the request", async () => {
    const [mt, { device, bays }] = [await makeEquippedModuleType(), await makeChassis()];
    const res = await t.post('/api/dcim/modules/', {
      device: device.id,
      module_bay: bays[1]!.id,
      module_type: mt.id,
      serial: 'SN1',
      asset_tag: '',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mod = res.json();
    expect(mod).toMatchObject({
      device: { id: device.id },
      module_bay: { id: bays[1]!.id },
      module_type: { id: mt.id, model: mt.model },
      status: { value: 'active' },
      asset_tag: null,
    });
    expect(mod.display).toBe(`Slot 2: ${mt.model} (${mod.id})`);
    expect(mod).not.toHaveProperty('replicate_components');
    const [iface] = await results(`/api/dcim/interfaces/?device_id=${device.id}`);
    expect(iface).toMatchObject({ name: 'eth2/1', label: 'Port 2', module: { id: mod.id } });
    expect(await names('console-ports', `module_id=${mod.id}`)).toEqual(['con2']);
    const [outlet] = await results(`/api/dcim/power-outlets/?device_id=${device.id}`);
    const [psu] = await results(`/api/dcim/power-ports/?device_id=${device.id}`);
    expect(outlet).toMatchObject({ name: 'out2', power_port: { id: psu!.id, name: 'PSU2' } });
    const [front] = await results(`/api/dcim/front-ports/?device_id=${device.id}`);
    const [rear] = await results(`/api/dcim/rear-ports/?device_id=${device.id}`);
    expect(front).toMatchObject({ name: 'front2', rear_port: { id: rear!.id }, rear_port_position: 2 });
    const changes = (await results(`/api/extras/object-changes/?request_id=${res.headers['x-request-id']}&limit=100`))
      .map((c) => `${c.action.value} ${c.changed_object_type}`)
      .sort();
    expect(changes).toEqual([
      'create dcim.consoleport',
      'create dcim.frontport',
      'create dcim.interface',
      'create dcim.module',
      'create dcim.poweroutlet',
      'create dcim.powerport',
      'create dcim.rearport',
    ]);
  });

  it('refuses a name clash, a placeholder in a bay without position, a bay of another device or one taken', async () => {
    const [mt, { device, bays }, other] = [await makeEquippedModuleType(), await makeChassis(), await makeChassis()];
    await makeInterface(t, device, { name: 'eth1/1' });
    const post = (data: Json) => t.post('/api/dcim/modules/', { device: device.id, module_type: mt.id, ...data });
    expect((await post({ module_bay: bays[0]!.id })).json()).toEqual({
      __all__: ['Interface - eth1/1 already exists'],
    });
    expect((await post({ module_bay: bays[2]!.id })).json()).toEqual({
      __all__: ['Cannot install module with placeholder values in a module bay with no position defined'],
    });
    expect((await post({ module_bay: other.bays[0]!.id })).json()).toEqual({
      __all__: [`Module must be installed within a module bay belonging to the assigned device (${device.name}).`],
    });
    expect((await results(`/api/dcim/console-ports/?device_id=${device.id}`)).length).toBe(0);
    await make(t, '/api/dcim/modules/', { device: device.id, module_type: mt.id, module_bay: bays[1]!.id });
    expect((await post({ module_bay: bays[1]!.id })).json()).toEqual({
      module_bay: ['module with this Module bay already exists.'],
    });
  });

  it('adopts same-named components on no module, and refuses those on another module', async () => {
    const [mt, { device, bays }] = [await makeEquippedModuleType(), await makeChassis()];
    const existing = await makeInterface(t, device, { name: 'eth1/1', description: 'kept' });
    const res = await t.post('/api/dcim/modules/', {
      device: device.id,
      module_bay: bays[0]!.id,
      module_type: mt.id,
      adopt_components: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const mod = res.json();
    const list = await results(`/api/dcim/interfaces/?device_id=${device.id}`);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: existing.id, description: 'kept', module: { id: mod.id } });
    expect(await names('console-ports', `module_id=${mod.id}`)).toEqual(['con1']);
    const updates = (
      await results(`/api/extras/object-changes/?request_id=${res.headers['x-request-id']}&action=update`)
    ).map((c) => c.changed_object_id);
    expect(updates).toEqual([existing.id]);
    // a second module of the same position would adopt components that are on the first one now
    const other = await make(t, '/api/dcim/module-bays/', { device: device.id, name: 'Slot 1b', position: '1' });
    const clash = await t.post('/api/dcim/modules/', {
      device: device.id,
      module_bay: other.id,
      module_type: mt.id,
      adopt_components: true,
    });
    expect(clash.json()).toEqual({ __all__: ["Cannot adopt ConsolePort 'con1' as it already belongs to a module"] });
  });

  it('with replicate_components false creates nothing (and may still adopt)', async () => {
    const [mt, { device, bays }] = [await makeEquippedModuleType(), await makeChassis()];
    const mod = await make(t, '/api/dcim/modules/', {
      device: device.id,
      module_bay: bays[0]!.id,
      module_type: mt.id,
      replicate_components: false,
    });
    expect((await results(`/api/dcim/interfaces/?module_id=${mod.id}`)).length).toBe(0);
    const con = await make(t, '/api/dcim/console-ports/', { device: device.id, name: 'con2' });
    const adopting = await make(t, '/api/dcim/modules/', {
      device: device.id,
      module_bay: bays[1]!.id,
      module_type: mt.id,
      replicate_components: false,
      adopt_components: true,
    });
    expect(await results(`/api/dcim/console-ports/?module_id=${adopting.id}`)).toEqual([
      expect.objectContaining({ id: con.id }),
    ]);
    expect((await results(`/api/dcim/interfaces/?module_id=${adopting.id}`)).length).toBe(0);
  });

  it('in bulk, each module its own; removing a module removes its components, each deletion logged', async () => {
    const [mt, { device, bays }] = [await makeEquippedModuleType(), await makeChassis()];
    const res = await t.post(
      '/api/dcim/modules/',
      bays.slice(0, 2).map((b) => ({ device: device.id, module_bay: b.id, module_type: mt.id })),
    );
    expect(res.statusCode, res.body).toBe(201);
    const [m1, m2] = res.json() as Json[];
    expect(await names('interfaces', `device_id=${device.id}`)).toEqual(['eth1/1', 'eth2/1']);
    const del = await t.del(`/api/dcim/modules/${m1!.id}/`);
    expect(del.statusCode).toBe(204);
    expect(await names('interfaces', `device_id=${device.id}`)).toEqual(['eth2/1']);
    expect(await names('front-ports', `device_id=${device.id}`)).toEqual(['front2']);
    const deleted = (await results(`/api/extras/object-changes/?request_id=${del.headers['x-request-id']}&limit=100`))
      .map((c) => `${c.action.value} ${c.changed_object_type}`)
      .sort();
    expect(deleted).toEqual([
      'delete dcim.consoleport',
      'delete dcim.frontport',
      'delete dcim.interface',
      'delete dcim.module',
      'delete dcim.poweroutlet',
      'delete dcim.powerport',
      'delete dcim.rearport',
    ]);
    expect(ids(await get(`/api/dcim/modules/?device_id=${device.id}`))).toEqual([m2!.id]);
  });

  it('filters by device, bay, type (id and model), manufacturer and serial; brief form', async () => {
    const [mt, { device, bays }] = [await makeEquippedModuleType(), await makeChassis()];
    const mod = await make(t, '/api/dcim/modules/', {
      device: device.id,
      module_bay: bays[0]!.id,
      module_type: mt.id,
      serial: 'AbC1',
      replicate_components: false,
    });
    for (const q of [
      `device_id=${device.id}`,
      `module_bay_id=${bays[0]!.id}`,
      `module_type_id=${mt.id}`,
      `module_type=${encodeURIComponent(mt.model)}`,
      `manufacturer_id=${mt.manufacturer.id}`,
      `manufacturer=${mt.manufacturer.slug}`,
      'serial=abc1',
    ]) {
      expect(ids(await get(`/api/dcim/modules/?${q}`)), q).toEqual([mod.id]);
    }
    const [brief] = await results(`/api/dcim/modules/?id=${mod.id}&brief=1`);
    expect(Object.keys(brief!).sort()).toEqual(['device', 'display', 'id', 'module_bay', 'module_type', 'url']);
  });
});
