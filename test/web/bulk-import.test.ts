/**
 * The import page every writable model gets (`<list>import/`, web/model-pages/import.page.ts):
 * CSV, JSON and YAML pasted or sent as a file, a dry run that names each failing row and writes
 * nothing, an import that writes every row or none, updates by id, tags and custom fields.
 * Outcomes are read back through the REST API and the change log. Bad input:
 * bulk-import-bad-input.test.ts; related names: bulk-import-lookups.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { postImport, postImportFile, previewRows } from '../helpers/import-page.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import {
  type Json,
  makeCustomField,
  makeDevice,
  makeDeviceType,
  makeRole,
  makeSite,
  makeTag,
  uniq,
} from '../factories/index.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp({ IMPORT_MAX_ROWS: '50', IMPORT_MAX_BYTES: '20000' });
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const post = (list: string, fields: Record<string, string>, b: WebSession = admin) => postImport(t, b, list, fields);
const api = async (url: string) => (await t.get(url)).json();
const namesAt = async (url: string) => ((await api(url)).results as Json[]).map((r) => r.name as string).sort();

interface Fixture {
  site: Json;
  type: Json;
  role: Json;
  prefix: string;
}

async function fixture(): Promise<Fixture> {
  return { site: await makeSite(t), type: await makeDeviceType(t), role: await makeRole(t), prefix: uniq('imp') };
}

function deviceCsv(f: Fixture, badRow?: number): string {
  const lines = ['name,site,device_type,role,status'];
  for (let i = 1; i <= 5; i++)
    lines.push(`${f.prefix}-${i},${i === badRow ? 'no-such-site' : f.site.name},${f.type.model},${f.role.name},active`);
  return lines.join('\n');
}

/** the change records of these devices: their actions and request ids */
async function changesFor(ids: number[]): Promise<Json[]> {
  const out: Json[] = [];
  for (const id of ids)
    out.push(
      ...(await api(`/api/extras/object-changes/?changed_object_type=dcim.device&changed_object_id=${id}`)).results,
    );
  return out;
}

describe('import page', () => {
  it('shows the form and the accepted columns, with the related attribute each is named by', async () => {
    const page = await admin.request('GET', '/dcim/devices/import/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Import devices</h1>');
    expect(page.body).toContain('name="data"');
    expect(page.body).toContain('name="upload_file"');
    expect(page.body).toContain('name="_preview"');
    expect(page.body).toContain('name="_apply"');
    expect(page.body).toMatch(/<code>device_type<\/code><\/td><td>required<\/td><td>device type by model/);
    expect(page.body).toMatch(/<code>site<\/code><\/td><td>required<\/td><td>site by name/);
    expect(page.body).toMatch(/<code>tags<\/code><\/td><td><\/td><td>tags by slug/);
    const list = await admin.request('GET', '/dcim/devices/');
    expect(list.body).toContain('href="/dcim/devices/import/"');
  });
});

describe('CSV dry run and import', () => {
  it('a dry run names row 3 and its site column, writes nothing; fixed, the import writes 5 devices with change records', async () => {
    const f = await fixture();
    const changesBefore = (await api('/api/extras/object-changes/?limit=1')).count;
    const dry = await post('/dcim/devices/', { data: deviceCsv(f, 3), _preview: '1' });
    expect(dry.statusCode).toBe(400);
    const rows = previewRows(dry.body);
    expect(rows.map((r) => r[0])).toEqual(['1', '2', '3', '4', '5']);
    expect(rows[2]![1]).toBe('fail');
    expect(rows[2]![2]).toContain('site: No site with name "no-such-site"');
    expect(rows.filter((r) => r[1] === 'fail')).toHaveLength(1);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);

    // the same bad data committed: refused, nothing written
    const refused = await post('/dcim/devices/', { data: deviceCsv(f, 3), _apply: '1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('1 of 5 rows fail; nothing was written.');
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);

    // fixed: a dry run writes nothing and says what would happen
    const ok = await post('/dcim/devices/', { data: deviceCsv(f), _preview: '1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Dry run: 5 would be created and 0 updated; nothing was written.');
    expect(previewRows(ok.body).map((r) => r[1])).toEqual(['create', 'create', 'create', 'create', 'create']);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);
    // neither the dry runs nor the refused import left a change record
    expect((await api('/api/extras/object-changes/?limit=1')).count).toBe(changesBefore);

    const done = await post('/dcim/devices/', { data: deviceCsv(f), _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    const devices = (await api(`/api/dcim/devices/?name__isw=${f.prefix}`)).results as Json[];
    expect(devices.map((d) => d.name).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `${f.prefix}-${i}`));
    for (const d of devices) {
      expect(d.site.id).toBe(f.site.id);
      expect(d.device_type.id).toBe(f.type.id);
      expect(d.status.value).toBe('active');
    }
    const ids = devices.map((d) => d.id as number).sort((a, b) => a - b);
    // one create record each, all under the import request's id
    const changes = await changesFor(ids);
    expect(changes.map((c) => c.action.value)).toEqual(['create', 'create', 'create', 'create', 'create']);
    expect(new Set(changes.map((c) => c.request_id))).toEqual(new Set([done.headers['x-request-id']]));
    const location = done.headers.location as string;
    expect(location).toBe(`/dcim/devices/?${ids.map((id) => `id=${id}`).join('&')}&imported=5%2C0`);
    const list = await admin.request('GET', location);
    expect(list.body).toContain('Imported: 5 created, 0 updated.');
    for (const d of devices) expect(list.body).toContain(`${d.name}`);
  });

  it('quotes, doubled quotes, newlines in quotes, CRLF, a semicolon delimiter and typed cells', async () => {
    const f = await fixture();
    const name = `${f.prefix}-q`;
    const data = `name;site;device_type;role;comments;position;face\r\n"${name}";${f.site.name};${f.type.model};${f.role.name};"say ""hi""\nline two; still";;\r\n`;
    const res = await post('/dcim/devices/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const [d] = (await api(`/api/dcim/devices/?name=${name}`)).results as Json[];
    expect(d!.comments).toBe('say "hi"\nline two; still');
    expect(d!.position).toBeNull();
  });
});

describe('tags and custom fields', () => {
  it('tags by slug in one quoted cell, custom fields typed from their cells', async () => {
    const [a, b] = [await makeTag(t), await makeTag(t)];
    const count = await makeCustomField(t, { type: 'integer', content_types: ['dcim.site'] });
    const flag = await makeCustomField(t, { type: 'boolean', content_types: ['dcim.site'] });
    const name = uniq('tagged');
    const data = `name,slug,tags,cf_${count.name},cf_${flag.name}\n${name},${name},"${a.slug},${b.slug}",42,yes`;
    const res = await post('/dcim/sites/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const [site] = (await api(`/api/dcim/sites/?name=${name}`)).results as Json[];
    expect(site!.tags.map((x: Json) => x.slug).sort()).toEqual([a.slug, b.slug].sort());
    expect(site!.custom_fields[count.name]).toBe(42);
    expect(site!.custom_fields[flag.name]).toBe(true);
    const bad = await post('/dcim/sites/', {
      data: `name,slug,tags,cf_${count.name}\n${name}2,${name}2,no-such-tag,many`,
      _preview: '1',
    });
    expect(bad.statusCode).toBe(400);
    const errors = previewRows(bad.body)[0]![2]!;
    expect(errors).toContain('tags: No tag with slug "no-such-tag"');
    expect(errors).toContain(`cf_${count.name}:`);
    // JSON may give them as the API does
    const json = JSON.stringify([{ name: `${name}j`, slug: `${name}j`, custom_fields: { [count.name]: 7 } }]);
    const viaApiShape = await post('/dcim/sites/', { data: json, _apply: '1' });
    expect(viaApiShape.statusCode, viaApiShape.body).toBe(303);
    expect((await api(`/api/dcim/sites/?name=${name}j`)).results[0].custom_fields[count.name]).toBe(7);
  });
});

describe('an uploaded file', () => {
  it('a multipart post with the file in upload_file imports it (the CSRF token read from the form)', async () => {
    const name = uniq('upl');
    const res = await postImportFile(t, admin, '/dcim/sites/', `\ufeffname,slug\r\n${name},${name}\r\n`, {
      _apply: '1',
    });
    expect(res.statusCode, res.body).toBe(303);
    expect((await api(`/api/dcim/sites/?name=${name}`)).count).toBe(1);
  });
});

describe('JSON and YAML', () => {
  it('JSON: a bad site in the third object is named; fixed, all five are written', async () => {
    const f = await fixture();
    const rows = (bad?: number) =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `${f.prefix}-${i}`,
        site: i === bad ? 'no-such-site' : f.site.name,
        device_type: f.type.model,
        role: f.role.name,
        status: 'planned',
      }));
    const dry = await post('/dcim/devices/', { data: JSON.stringify(rows(3)), _preview: '1' });
    expect(dry.statusCode).toBe(400);
    const p = previewRows(dry.body);
    expect(p[2]![1]).toBe('fail');
    expect(p[2]![2]).toContain('site:');
    // pretty-printed, each object is named by the line it starts on
    const pretty = await post('/dcim/devices/', { data: JSON.stringify(rows(3), null, 2), _preview: '1' });
    expect(pretty.body).toContain('<th scope="col">Line</th>');
    expect(previewRows(pretty.body).map((r) => r[0])).toEqual(['2', '9', '16', '23', '30']);
    const done = await post('/dcim/devices/', { data: JSON.stringify(rows()), _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toHaveLength(5);
  });

  it('YAML: a list, and several documents', async () => {
    const f = await fixture();
    const item = (i: number, site: string) =>
      `name: ${f.prefix}-${i}\nsite: ${site}\ndevice_type: ${f.type.model}\nrole: ${f.role.name}\n`;
    const docs = [1, 2, 3, 4, 5].map((i) => item(i, i === 3 ? 'no-such-site' : f.site.name)).join('---\n');
    const dry = await post('/dcim/devices/', { data: `---\n${docs}`, _preview: '1' });
    expect(dry.statusCode).toBe(400);
    expect(previewRows(dry.body)[2]![1]).toBe('fail');
    // each document by the line it starts on
    expect(previewRows(dry.body).map((r) => r[0])).toEqual(['2', '7', '12', '17', '22']);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);
    const list = [1, 2, 3, 4, 5].map((i) => `- ${item(i, f.site.name).trimEnd().replace(/\n/g, '\n  ')}`).join('\n');
    const done = await post('/dcim/devices/', { data: list, format: 'yaml', _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toHaveLength(5);
  });
});

describe('updates by id', () => {
  it('an id column updates that object; the dry run names it', async () => {
    const device = await makeDevice(t);
    const data = `id,serial,status\n${device.id},SN-${device.id},offline`;
    const dry = await post('/dcim/devices/', { data, _preview: '1' });
    expect(dry.statusCode).toBe(200);
    expect(previewRows(dry.body)[0]![1]).toBe(`update ${device.name}`);
    expect((await api(`/api/dcim/devices/${device.id}/`)).serial).toBe('');
    const done = await post('/dcim/devices/', { data, _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe(`/dcim/devices/?id=${device.id}&imported=0%2C1`);
    const after = await api(`/api/dcim/devices/${device.id}/`);
    expect(after.serial).toBe(`SN-${device.id}`);
    expect(after.status.value).toBe('offline');
    const changes = await api(
      `/api/extras/object-changes/?changed_object_type=dcim.device&changed_object_id=${device.id}`,
    );
    expect(changes.results.map((c: Json) => c.action.value).sort()).toEqual(['create', 'update']);
  });

  it('every failing update row is named, not only the first (the bulk update names one)', async () => {
    const sites = [];
    for (let i = 0; i < 6; i++) sites.push(await makeSite(t));
    const status = (i: number) => (i === 1 || i === 4 ? 'no-such-status' : 'retired');
    const data = ['id,status', ...sites.map((s, i) => `${s.id},${status(i)}`)].join('\n');
    const res = await post('/dcim/sites/', { data, _apply: '1' });
    expect(res.statusCode).toBe(400);
    const rows = previewRows(res.body);
    expect(rows.map((r) => r[1] === 'fail')).toEqual([false, true, false, false, true, false]);
    expect(rows[1]![2]).toMatch(/^status: /);
    for (const s of sites) expect((await api(`/api/dcim/sites/${s.id}/`)).status.value).toBe('active');
  });

  it("an id that names nothing is that row's error", async () => {
    const res = await post('/dcim/sites/', { data: 'id,description\n999999999,x', _apply: '1' });
    expect(res.statusCode).toBe(400);
    expect(previewRows(res.body)[0]![2]).toContain('id: No site with id 999999999.');
  });
});
