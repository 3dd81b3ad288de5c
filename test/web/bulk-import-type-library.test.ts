/**
 * The device types' import page takes the community device-type library's YAML (web/import/
 * type-library-import.ts): a dry run that writes nothing, then the type with its component
 * templates, which a new device of that type receives; a bad key is named with its document.
 */
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, makeManufacturer, makeRole, makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { postImport, previewRows } from '../helpers/import-page.js';
import { switchDoc } from '../helpers/type-library.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const types = async (model: string) =>
  (await t.get(`/api/dcim/device-types/?model=${encodeURIComponent(model)}`)).json();

describe('the device-type library on the import page', () => {
  it('dry-runs a switch with 48 interfaces, 2 power ports and a console port, imports it, and a device gets them', async () => {
    const maker = await makeManufacturer(t);
    const doc = switchDoc(maker.name);
    const data = YAML.stringify(doc);
    const preview = await postImport(t, admin, '/dcim/device-types/', { data, _preview: '1' });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(previewRows(preview.body).map((r) => r[1])).toEqual(['create']);
    expect((await types(doc.model)).count).toBe(0);
    const done = await postImport(t, admin, '/dcim/device-types/', { data, _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    const type = (await types(doc.model)).results[0];
    expect(type).toMatchObject({ u_height: 1, is_full_depth: true, interface_template_count: 48 });
    const role = await makeRole(t);
    const site = await makeSite(t);
    const device = await t.post('/api/dcim/devices/', {
      name: uniq('sw'),
      device_type: type.id,
      device_role: role.id,
      site: site.id,
    });
    expect(device.statusCode, device.body).toBe(201);
    const count = async (path: string) =>
      (await t.get(`/api/dcim/${path}/?device_id=${device.json().id}`)).json().count;
    expect([await count('interfaces'), await count('power-ports'), await count('console-ports')]).toEqual([48, 2, 1]);
  });

  it('names the document and key that fail, and writes none of the documents', async () => {
    const maker = await makeManufacturer(t);
    const good = switchDoc(maker.name);
    const bad: Json = switchDoc(maker.name);
    bad.interfaces[3].type = 'warp-drive';
    const data = `${YAML.stringify(good)}---\n${YAML.stringify(bad)}`;
    const res = await postImport(t, admin, '/dcim/device-types/', { data, _apply: '1' });
    expect(res.statusCode).toBe(400);
    const rows = previewRows(res.body);
    expect(rows[1]![1]).toBe('fail');
    expect(rows[1]![2]).toContain('interfaces[3].type');
    expect((await types(good.model)).count + (await types(bad.model)).count).toBe(0);
  });
});
