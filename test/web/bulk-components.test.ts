/**
 * "Add components" on the device and virtual machine lists (web/model-pages/bulk/
 * add-components.page.ts): name patterns expanded per selected owner, previewed, then created all
 * or none through the write path; read back through the REST API and the change log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPattern } from '../../src/web/model-pages/bulk/name-pattern.js';
import {
  grant,
  type Json,
  makeDevice,
  makeDeviceType,
  makeInterface,
  makeSite,
  makeUser,
  makeVm,
  uniq,
} from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { postForm } from '../helpers/web-forms.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

type Pairs = Array<[string, string]>;
const post = (url: string, pairs: Pairs, b = admin) => postForm(t, b, url, pairs, { formUrl: '/dcim/devices/' });
const pks = (...objs: Json[]): Pairs => objs.map((o) => ['pk', String(o.id)]);
const namesOn = async (device: Json) =>
  (await t.get(`/api/dcim/interfaces/?device_id=${device.id}&limit=1000&ordering=id`))
    .json()
    .results.map((i: Json) => i.name);

describe('name patterns', () => {
  it("expands NetBox's ranges and lists, multiplies brackets and refuses what it cannot make", () => {
    expect(expandPattern('Gi0/[1-48]')).toHaveLength(48);
    expect(expandPattern('eth[0-3]')).toEqual(['eth0', 'eth1', 'eth2', 'eth3']);
    const junos = expandPattern('[ge,xe]-0/0/[0-9]');
    expect(junos).toHaveLength(20);
    expect([junos[0], junos[19]]).toEqual(['ge-0/0/0', 'xe-0/0/9']);
    expect(expandPattern('port[a-c]')).toEqual(['porta', 'portb', 'portc']);
    expect(expandPattern('[x]')).toEqual(['[x]']);
    expect(() => expandPattern('e[5-1]')).toThrow('runs backwards');
    expect(() => expandPattern('e[1-40]/[1-40]')).toThrow('more than 1,000 names');
    expect(() => expandPattern('e[a-Z]')).toThrow('Invalid range');
  });
});

describe('add components to devices', () => {
  it('previews Gi0/[1-48] on two devices, then creates 96 interfaces, each with a change record', async () => {
    const [a, b] = [await makeDevice(t), await makeDevice(t)];
    const form = await post('/dcim/devices/interfaces/add/', pks(a, b));
    expect(form.statusCode, form.body).toBe(200);
    expect(form.body).toContain('<h1>Add interfaces to 2 devices</h1>');
    expect(form.body).not.toContain('name="lag"');
    const fields: Pairs = [
      ...pks(a, b),
      ['name', 'Gi0/[1-48]'],
      ['label', 'port[1-48]'],
      ['type', '1000base-t'],
      ['mtu', '9000'],
    ];
    const preview = await post('/dcim/devices/interfaces/add/', [...fields, ['_preview', '1']]);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.body).toContain('96 new interfaces');
    expect(preview.body).toContain('Gi0/1, Gi0/2');
    expect(await namesOn(a)).toEqual([]);
    const res = await post('/dcim/devices/interfaces/add/', [...fields, ['_apply', '1']]);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/dcim/interfaces/?device_id=${a.id}&device_id=${b.id}&done=created%3A96`);
    for (const d of [a, b]) expect(await namesOn(d)).toEqual(expandPattern('Gi0/[1-48]'));
    const one = (await t.get(`/api/dcim/interfaces/?device_id=${a.id}&name=Gi0/7`)).json().results[0];
    expect(one).toMatchObject({ label: 'port7', mtu: 9000, type: { value: '1000base-t' } });
    const changes = await t.get(
      `/api/extras/object-changes/?changed_object_type=dcim.interface&changed_object_id=${one.id}`,
    );
    expect(changes.json().results.map((c: Json) => c.action.value)).toEqual(['create']);
  });

  it('creates nothing when one name is taken on one device, and names that device and name', async () => {
    const [a, b] = [await makeDevice(t), await makeDevice(t)];
    await makeInterface(t, b, { name: 'eth2' });
    const res = await post('/dcim/devices/interfaces/add/', [
      ...pks(a, b),
      ['name', 'eth[0-3]'],
      ['type', 'virtual'],
      ['_apply', '1'],
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`${b.name}, eth2: nothing was created.`);
    expect(await namesOn(a)).toEqual([]);
    expect(await namesOn(b)).toEqual(['eth2']);
  });

  it('refuses a pattern too large, labels that do not match the names, a missing name or type', async () => {
    const a = await makeDevice(t);
    const cases: Array<[Pairs, string]> = [
      [
        [
          ['name', 'e[1-40]/[1-40]'],
          ['type', 'virtual'],
        ],
        'This pattern makes more than 1,000 names.',
      ],
      [
        [
          ['name', 'e[1-4]'],
          ['label', 'l[1-3]'],
          ['type', 'virtual'],
        ],
        'The label pattern makes 3 labels for 4 names',
      ],
      [[['type', 'virtual']], 'This field is required.'],
      [[['name', 'e[1-2]']], 'This field is required.'],
    ];
    for (const [pairs, message] of cases) {
      const res = await post('/dcim/devices/interfaces/add/', [...pks(a), ...pairs, ['_apply', '1']]);
      expect(res.statusCode, message).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(await namesOn(a)).toEqual([]);
  });

  it('makes power ports, and VM interfaces from the virtual machine list', async () => {
    const a = await makeDevice(t);
    const res = await post('/dcim/devices/power-ports/add/', [...pks(a), ['name', 'PS[1-2]'], ['_apply', '1']]);
    expect(res.statusCode, res.body).toBe(303);
    const ports = (await t.get(`/api/dcim/power-ports/?device_id=${a.id}`)).json().results;
    expect(ports.map((p: Json) => p.name)).toEqual(['PS1', 'PS2']);
    const vm = await makeVm(t);
    const vmRes = await post('/virtualization/virtual-machines/interfaces/add/', [
      ...pks(vm),
      ['name', '[ge,xe]-0/0/[0-9]'],
      ['_apply', '1'],
    ]);
    expect(vmRes.statusCode, vmRes.body).toBe(303);
    expect((await t.get(`/api/virtualization/interfaces/?virtual_machine_id=${vm.id}`)).json().count).toBe(20);
  });

  it('answers 404 for a kind the model does not make and 403 to a user who may not add it', async () => {
    const a = await makeDevice(t);
    expect((await post('/dcim/devices/circuits/add/', pks(a))).statusCode).toBe(404);
    expect((await post('/dcim/sites/interfaces/add/', pks(a))).statusCode).toBe(404);
    const user = await makeUser(t);
    await grant(t, { object_types: ['dcim.device', 'dcim.interface'], actions: ['view'], users: [user.id] });
    const b = await signIn(t, user.username, user.password);
    const res = await post(
      '/dcim/devices/interfaces/add/',
      [...pks(a), ['name', 'x[1-2]'], ['type', 'virtual'], ['_apply', '1']],
      b,
    );
    expect(res.statusCode).toBe(403);
    const list = await b.request('GET', '/dcim/devices/');
    expect(list.body).not.toContain('Add components');
    expect(await namesOn(a)).toEqual([]);
  });
});

describe('clone with components', () => {
  /** a device of a type with eth0 and eth1, plus components of its own that point at each other */
  async function original(): Promise<{ device: Json; site: Json }> {
    const site = await makeSite(t);
    const type = await makeDeviceType(t);
    for (const name of ['eth0', 'eth1'])
      expect(
        (await t.post('/api/dcim/interface-templates/', { device_type: type.id, name, type: '1000base-t' })).statusCode,
      ).toBe(201);
    const device = await makeDevice(t, { site: site.id, device_type: type.id });
    const lag = await makeInterface(t, device, { name: 'ae0', type: 'lag' });
    await makeInterface(t, device, {
      name: 'eth5',
      type: '10gbase-x-sfpp',
      lag: lag.id,
      mtu: 9000,
      mac_address: '00:11:22:33:44:55',
    });
    const ps = await t.post('/api/dcim/power-ports/', { device: device.id, name: 'PS1', maximum_draw: 400 });
    await t.post('/api/dcim/power-outlets/', { device: device.id, name: 'O1', power_port: ps.json().id });
    const rear = await t.post('/api/dcim/rear-ports/', { device: device.id, name: 'R1', type: 'lc', positions: 2 });
    await t.post('/api/dcim/front-ports/', {
      device: device.id,
      name: 'F1',
      type: 'lc',
      rear_port: rear.json().id,
      rear_port_position: 2,
    });
    return { device, site };
  }
  const addForm = (device: Json) => `/dcim/devices/add/?_clone_components=${device.id}`;
  const cloneFields = (device: Json, name: string, site = device.site.id): Pairs => [
    ['name', name],
    ['device_type', String(device.device_type.id)],
    ['role', String(device.device_role.id)],
    ['site', String(site)],
    ['status', 'active'],
    ['_create', '1'],
  ];

  it("offers the copy on the Clone form and copies what the type does not give, references mapped to the copy's own", async () => {
    const { device } = await original();
    const page = await admin.request('GET', `/dcim/devices/${device.id}/`);
    expect(page.body).toContain(`_clone_components=${device.id}`);
    const form = await admin.request('GET', addForm(device));
    expect(form.body).toMatch(
      new RegExp(`<input type="checkbox" name="_clone_components" value="${device.id}"> Also copy`),
    );
    expect(form.body).toContain(`${device.name} has 8 components.`);
    const name = uniq('clone');
    const res = await postForm(
      t,
      admin,
      '/dcim/devices/add/',
      [...cloneFields(device, name), ['_clone_components', String(device.id)]],
      {
        formUrl: addForm(device),
      },
    );
    expect(res.statusCode, res.body).toBe(303);
    const copy = (await t.get(`/api/dcim/devices/?name=${name}`)).json().results[0];
    const ifaces = (await t.get(`/api/dcim/interfaces/?device_id=${copy.id}&ordering=name`)).json().results;
    expect(ifaces.map((i: Json) => i.name)).toEqual(['ae0', 'eth0', 'eth1', 'eth5']);
    const eth5 = ifaces.find((i: Json) => i.name === 'eth5');
    expect(eth5).toMatchObject({ mtu: 9000, mac_address: null, type: { value: '10gbase-x-sfpp' } });
    expect(eth5.lag.id).toBe(ifaces.find((i: Json) => i.name === 'ae0').id);
    const outlet = (await t.get(`/api/dcim/power-outlets/?device_id=${copy.id}`)).json().results[0];
    const port = (await t.get(`/api/dcim/power-ports/?device_id=${copy.id}`)).json().results[0];
    expect([outlet.name, outlet.power_port.id, port.maximum_draw]).toEqual(['O1', port.id, 400]);
    const front = (await t.get(`/api/dcim/front-ports/?device_id=${copy.id}`)).json().results[0];
    const rear = (await t.get(`/api/dcim/rear-ports/?device_id=${copy.id}`)).json().results[0];
    expect([front.rear_port.id, front.rear_port_position, rear.positions]).toEqual([rear.id, 2, 2]);
    // the original keeps its own
    expect((await t.get(`/api/dcim/interfaces/?device_id=${device.id}`)).json().count).toBe(4);
  });

  it('copies nothing when the box is left unticked', async () => {
    const { device } = await original();
    const name = uniq('plain');
    const res = await postForm(t, admin, '/dcim/devices/add/', cloneFields(device, name), { formUrl: addForm(device) });
    expect(res.statusCode, res.body).toBe(303);
    const copy = (await t.get(`/api/dcim/devices/?name=${name}`)).json().results[0];
    const names = (await t.get(`/api/dcim/interfaces/?device_id=${copy.id}&ordering=name`))
      .json()
      .results.map((i: Json) => i.name);
    expect(names).toEqual(['eth0', 'eth1']);
  });

  it('creates neither the device nor any copy when one copy is refused, and says which', async () => {
    const { device, site } = await original();
    const vlan = await t.post('/api/ipam/vlans/', { name: uniq('v'), vid: 10, site: site.id });
    await makeInterface(t, device, {
      name: 'access1',
      type: '1000base-t',
      mode: 'access',
      untagged_vlan: vlan.json().id,
    });
    const elsewhere = await makeSite(t);
    const name = uniq('refused');
    const res = await postForm(
      t,
      admin,
      '/dcim/devices/add/',
      [...cloneFields(device, name, elsewhere.id), ['_clone_components', String(device.id)]],
      { formUrl: addForm(device) },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Copying the interface access1 failed');
    expect((await t.get(`/api/dcim/devices/?name=${name}`)).json().count).toBe(0);
  });
});
