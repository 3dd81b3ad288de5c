/**
 * Component templates (NetBox 3.4 ComponentTemplateModel and its kinds): their rules, filters and
 * forms, the device type's template counts, and the components a new device gets from them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp, uniq } from '../../helpers/app.js';
import { ids, type Json, make, makeDevice, makeDeviceType, makeManufacturer } from './factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const tpl = (path: string, data: Json) => make(t, `/api/dcim/${path}/`, data);
const makeModuleType = async () => make(t, '/api/dcim/module-types/', { manufacturer: (await makeManufacturer(t)).id, model: uniq('mt') });

describe('component templates', () => {
  it('belong to exactly one of a device type and a module type', async () => {
    const [dt, mt] = [await makeDeviceType(t), await makeModuleType()];
    const both = await t.post('/api/dcim/console-port-templates/', { device_type: dt.id, module_type: mt.id, name: 'con0' });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({ __all__: ['A component template cannot be associated with both a device type and a module type.'] });
    const none = await t.post('/api/dcim/console-port-templates/', { name: 'con0' });
    expect(none.json()).toEqual({ __all__: ['A component template must be associated with either a device type or a module type.'] });
    const ok = await tpl('console-port-templates', { module_type: mt.id, name: 'con{module}', type: 'rj-45', label: 'Console' });
    expect(ok).toMatchObject({ device_type: null, module_type: { id: mt.id, model: mt.model }, name: 'con{module}', display: 'con{module} (Console)' });
    expect(ok.type).toEqual({ value: 'rj-45', label: 'RJ-45' });
  });

  it('keep names unique per type, cannot move to another type, and filter by devicetype_id / moduletype_id', async () => {
    const [dt, dt2, mt] = [await makeDeviceType(t), await makeDeviceType(t), await makeModuleType()];
    const a = await tpl('interface-templates', { device_type: dt.id, name: 'eth1', type: '1000base-t' });
    const b = await tpl('interface-templates', { module_type: mt.id, name: 'eth1', type: '1000base-t' });
    const dup = await t.post('/api/dcim/interface-templates/', { device_type: dt.id, name: 'eth1', type: 'virtual' });
    expect(dup.json()).toEqual({ __all__: ['Interface template with this Device type and Name already exists.'] });
    const moved = await t.patch(`/api/dcim/interface-templates/${a.id}/`, { device_type: dt2.id });
    expect(moved.json()).toEqual({ device_type: ['Component templates cannot be moved to a different device type.'] });
    expect(ids(await get(`/api/dcim/interface-templates/?devicetype_id=${dt.id}`))).toEqual([a.id]);
    expect(ids(await get(`/api/dcim/interface-templates/?moduletype_id=${mt.id}`))).toEqual([b.id]);
    expect((await get(`/api/dcim/interface-templates/?moduletype_id=${mt.id}&brief=1`)).results).toEqual([
      { id: b.id, url: expect.stringContaining(`/api/dcim/interface-templates/${b.id}/`), display: 'eth1', name: 'eth1' },
    ]);
  });
});
