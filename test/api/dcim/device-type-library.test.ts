/**
 * Device-type library YAML (dcim/type-library/): POST /api/dcim/device-types/ and module-types/
 * with a YAML body makes the type and its component templates in one transaction, names a failing
 * key, writes nothing when anything fails, and is refused without the add permission.
 */
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { postYaml, switchDoc } from '../../helpers/type-library.js';
import { grant, type Json, make, makeDevice, makeManufacturer, makeUser, uniq } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const countOf = async (url: string) => (await t.get(url)).json().count as number;

describe('POST device-types/ with YAML', () => {
  it('makes the type and its templates; a device of the type gets the components', async () => {
    const mfr = await makeManufacturer(t);
    const doc = switchDoc(mfr.name);
    const res = await postYaml(t, '/api/dcim/device-types/', stringify(doc));
    expect(res.statusCode, res.body).toBe(201);
    const type = res.json();
    expect(type).toMatchObject({
      model: doc.model,
      manufacturer: { id: mfr.id },
      airflow: { value: 'front-to-rear' },
      weight_unit: { value: 'kg' },
      interface_template_count: 48,
      power_port_template_count: 2,
      console_port_template_count: 1,
    });
    const device = await makeDevice(t, { device_type: type.id });
    expect(await countOf(`/api/dcim/interfaces/?device_id=${device.id}&limit=1`)).toBe(48);
    expect(await countOf(`/api/dcim/interfaces/?device_id=${device.id}&poe_mode=pse&limit=1`)).toBe(46);
    expect(await countOf(`/api/dcim/interfaces/?device_id=${device.id}&mgmt_only=true&limit=1`)).toBe(2);
    expect(await countOf(`/api/dcim/power-ports/?device_id=${device.id}&limit=1`)).toBe(2);
    expect(await countOf(`/api/dcim/console-ports/?device_id=${device.id}&limit=1`)).toBe(1);
    const outlet = (await t.get(`/api/dcim/power-outlets/?device_id=${device.id}`)).json().results[0];
    expect(outlet.power_port.name).toBe('PS-B');
    const fronts = (await t.get(`/api/dcim/front-ports/?device_id=${device.id}&ordering=name`)).json().results;
    expect(fronts.map((f: Json) => [f.name, f.rear_port.name, f.rear_port_position])).toEqual([
      ['front1', 'rear1', 1],
      ['front2', 'rear1', 2],
    ]);
  });

  it('makes bays, bridges and an inventory tree, names resolved within the type', async () => {
    const mfr = await makeManufacturer(t);
    const role = await make(t, '/api/dcim/inventory-item-roles/', { name: uniq('role'), slug: uniq('role') });
    const doc = switchDoc(mfr.name, {
      subdevice_role: 'parent',
      interfaces: [
        { name: 'br0', type: 'bridge' },
        { name: 'eth0', type: '1000base-t', bridge: 'br0' },
        { name: 'eth1', type: '1000base-t', bridge: 'br1' },
        { name: 'br1', type: 'bridge' },
      ],
      'module-bays': [{ name: 'Slot 1', position: '1' }],
      'device-bays': [{ name: 'Blade 1' }],
      'inventory-items': [
        { name: 'chassis', role: role.name, manufacturer: mfr.name, part_id: 'CH-1' },
        { name: 'fan', parent: 'chassis', component_type: 'dcim.interfacetemplate', component_name: 'eth0' },
      ],
    });
    const res = await postYaml(t, '/api/dcim/device-types/', stringify(doc));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const ifaces = (await t.get(`/api/dcim/interface-templates/?devicetype_id=${id}&ordering=name`)).json().results;
    expect(ifaces.map((i: Json) => [i.name, i.bridge?.name ?? null])).toEqual([
      ['br0', null],
      ['br1', null],
      ['eth0', 'br0'],
      ['eth1', 'br1'],
    ]);
    expect((await t.get(`/api/dcim/module-bay-templates/?devicetype_id=${id}`)).json().results[0].position).toBe('1');
    expect(await countOf(`/api/dcim/device-bay-templates/?devicetype_id=${id}&limit=1`)).toBe(1);
    const items = (await t.get(`/api/dcim/inventory-item-templates/?devicetype_id=${id}&ordering=name`)).json().results;
    const [chassis, fan] = [items.find((i: Json) => i.name === 'chassis'), items.find((i: Json) => i.name === 'fan')];
    expect(chassis).toMatchObject({ role: { id: role.id }, manufacturer: { id: mfr.id }, part_id: 'CH-1' });
    expect(fan.parent).toBe(chassis.id);
    expect(fan.component_id).toBe(ifaces.find((i: Json) => i.name === 'eth0').id);
  });

  it('takes the manufacturer by slug, and text/yaml and application/x-yaml', async () => {
    const mfr = await makeManufacturer(t);
    for (const type of ['text/yaml', 'application/x-yaml; charset=utf-8']) {
      const res = await postYaml(t, '/api/dcim/device-types/', stringify(switchDoc(mfr.slug)), t.token, type);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().manufacturer.id).toBe(mfr.id);
    }
  });

  it('makes every type of a list, or of several --- documents, answering a list', async () => {
    const mfr = await makeManufacturer(t);
    const [a, b] = [switchDoc(mfr.name), switchDoc(mfr.name, { interfaces: [] })];
    const list = await postYaml(t, '/api/dcim/device-types/', stringify([a, b]));
    expect(list.statusCode, list.body).toBe(201);
    expect(list.json().map((x: Json) => [x.model, x.interface_template_count])).toEqual([
      [a.model, 48],
      [b.model, 0],
    ]);
    const [c, d] = [switchDoc(mfr.name), switchDoc(mfr.name)];
    const several = await postYaml(t, '/api/dcim/device-types/', `${stringify(c)}---\n${stringify(d)}`);
    expect(several.statusCode, several.body).toBe(201);
    expect(several.json().map((x: Json) => x.model)).toEqual([c.model, d.model]);
  });

  it('names the failing key and writes nothing, of any document', async () => {
    const mfr = await makeManufacturer(t);
    const good = switchDoc(mfr.name);
    const bad = switchDoc(mfr.name);
    bad.interfaces[3].type = 'xyz';
    const before = await countOf('/api/dcim/interface-templates/?limit=1');
    const res = await postYaml(t, '/api/dcim/device-types/', stringify([good, bad]));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ '[1].interfaces[3].type': ['"xyz" is not a valid choice.'] });
    const one = await postYaml(t, '/api/dcim/device-types/', stringify(bad));
    expect(one.json()).toEqual({ 'interfaces[3].type': ['"xyz" is not a valid choice.'] });
    expect(await countOf(`/api/dcim/device-types/?model=${good.model}&model=${bad.model}&limit=1`)).toBe(0);
    expect(await countOf('/api/dcim/interface-templates/?limit=1')).toBe(before);
  });

  it('names a front port whose rear port is not in the type', async () => {
    const mfr = await makeManufacturer(t);
    const doc = switchDoc(mfr.name);
    doc['front-ports'][1].rear_port = 'rear9';
    const res = await postYaml(t, '/api/dcim/device-types/', stringify(doc));
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toEqual(['front-ports[1].rear_port']);
    expect(await countOf(`/api/dcim/device-types/?model=${doc.model}&limit=1`)).toBe(0);
  });

  it('refuses a manufacturer that does not exist, naming it (NetBox import: it must exist)', async () => {
    const name = uniq('NoSuchVendor');
    const res = await postYaml(t, '/api/dcim/device-types/', stringify(switchDoc(name)));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ manufacturer: [`Manufacturer "${name}" not found.`] });
    expect(await countOf(`/api/dcim/manufacturers/?name=${name}&limit=1`)).toBe(0);
  });

  it('refuses a model the manufacturer already has', async () => {
    const mfr = await makeManufacturer(t);
    const doc = switchDoc(mfr.name);
    expect((await postYaml(t, '/api/dcim/device-types/', stringify(doc))).statusCode).toBe(201);
    const again = await postYaml(t, '/api/dcim/device-types/', stringify({ ...doc, slug: uniq('other') }));
    expect(again.statusCode, again.body).toBe(400);
    expect(Object.keys(again.json()).join()).toMatch(/non_field_errors|model/);
    expect(await countOf(`/api/dcim/device-types/?model=${doc.model}&limit=1`)).toBe(1);
  });

  it('is refused without the add permission on device types (403), and writes nothing', async () => {
    const mfr = await makeManufacturer(t);
    const user = await makeUser(t);
    await grant(t, { object_types: ['dcim.devicetype', 'dcim.manufacturer'], actions: ['view'], users: [user.id] });
    const doc = switchDoc(mfr.name);
    const res = await postYaml(t, '/api/dcim/device-types/', stringify(doc), user.token);
    expect(res.statusCode, res.body).toBe(403);
    // before the documents are read: a missing manufacturer is not what it answers
    const unknown = await postYaml(t, '/api/dcim/device-types/', stringify(switchDoc(uniq('none'))), user.token);
    expect(unknown.statusCode, unknown.body).toBe(403);
    expect(await countOf(`/api/dcim/device-types/?model=${doc.model}&limit=1`)).toBe(0);
  });

  it('a YAML syntax error is a 400; YAML elsewhere is a 415; JSON is as before', async () => {
    const bad = await postYaml(t, '/api/dcim/device-types/', 'model: [unclosed');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^YAML parse error/);
    const elsewhere = await postYaml(t, '/api/dcim/sites/', 'name: x');
    expect(elsewhere.statusCode).toBe(415);
    const mfr = await makeManufacturer(t);
    const json = await t.post('/api/dcim/device-types/', { manufacturer: mfr.id, model: uniq('m'), slug: uniq('m') });
    expect(json.statusCode, json.body).toBe(201);
  });
});

describe('POST module-types/ with YAML', () => {
  it('makes a module type with its ports; bays are not a module type list', async () => {
    const mfr = await makeManufacturer(t);
    const model = uniq('SFP-module');
    const doc = {
      manufacturer: mfr.name,
      model,
      part_number: 'PN-1',
      interfaces: [
        { name: 'Te{module}/1', type: '10gbase-x-sfpp' },
        { name: 'Te{module}/2', type: '10gbase-x-sfpp' },
      ],
      'power-ports': [{ name: 'PWR', type: 'iec-60320-c14' }],
    };
    const res = await postYaml(t, '/api/dcim/module-types/', stringify(doc));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ model, part_number: 'PN-1', manufacturer: { id: mfr.id } });
    const id = res.json().id;
    expect(await countOf(`/api/dcim/interface-templates/?moduletype_id=${id}&limit=1`)).toBe(2);
    expect(await countOf(`/api/dcim/power-port-templates/?moduletype_id=${id}&limit=1`)).toBe(1);
    const bays = await postYaml(
      t,
      '/api/dcim/module-types/',
      stringify({ manufacturer: mfr.name, model: uniq('m'), 'device-bays': [{ name: 'b' }] }),
    );
    expect(bays.statusCode).toBe(400);
    expect(Object.keys(bays.json())).toEqual(['device-bays']);
  });
});
