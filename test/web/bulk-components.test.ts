/**
 * "Add components" on the device and virtual machine lists (web/model-pages/bulk/
 * add-components.page.ts): name patterns expanded per selected owner, previewed, then created all
 * or none through the write path; read back through the REST API and the change log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPattern } from '../../src/web/model-pages/bulk/name-pattern.js';
import { grant, type Json, makeDevice, makeInterface, makeUser, makeVm } from '../factories/index.js';
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
