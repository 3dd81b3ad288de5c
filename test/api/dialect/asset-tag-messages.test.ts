/**
 * The uniqueness error of an asset tag, as each NetBox's API words it (DRF's UniqueValidator:
 * `<model verbose name> with this <field verbose name> already exists.`): NetBox 3.4 names the
 * field "Asset tag", NetBox 4 lowercased its verbose names ("asset tag"). Racks, devices, modules
 * and inventory items all have a unique asset tag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Json, make, makeDevice, makeModuleType, makeSite, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/** the body of a second object of `path` with a taken asset tag, each dialect's answer */
async function duplicateTag(path: string, body: () => Promise<Json>): Promise<Record<'3.4' | '4.4', unknown>> {
  const asset_tag = uniq('tag');
  await make(t, path, { ...(await body()), asset_tag });
  const old = await t.post(path, { ...(await body()), asset_tag });
  const v44 = await api44(t).post(path, { ...(await body()), asset_tag });
  expect([old.statusCode, v44.statusCode]).toEqual([400, 400]);
  return { '3.4': old.json(), '4.4': v44.json() };
}

describe('asset tag uniqueness messages', () => {
  it.each([
    ['rack', '/api/dcim/racks/', async () => ({ name: uniq('r'), site: (await makeSite(t)).id })],
    ['device', '/api/dcim/devices/', async () => ({ ...(await deviceBody()) })],
    [
      'module',
      '/api/dcim/modules/',
      async () => {
        const device = await makeDevice(t);
        const bay = await make(t, '/api/dcim/module-bays/', { device: device.id, name: uniq('bay') });
        return { device: device.id, module_bay: bay.id, module_type: (await makeModuleType(t)).id };
      },
    ],
    [
      'inventory item',
      '/api/dcim/inventory-items/',
      async () => ({ device: (await makeDevice(t)).id, name: uniq('i') }),
    ],
  ])('%s: "Asset tag" in 3.4, "asset tag" in 4.4', async (model, path, body) => {
    const answers = await duplicateTag(path, body);
    expect(answers['3.4']).toEqual({ asset_tag: [`${model} with this Asset tag already exists.`] });
    expect(answers['4.4']).toEqual({ asset_tag: [`${model} with this asset tag already exists.`] });
  });
});

/** a device of its own type and role at a new site (makeDevice's parts, without creating it) */
async function deviceBody(): Promise<Json> {
  const d = await makeDevice(t);
  return { name: uniq('d'), device_type: d.device_type.id, role: d.role?.id ?? d.device_role.id, site: d.site.id };
}
