/**
 * Bad input on the import page (web/model-pages/import.page.ts): malformed CSV, invalid JSON and
 * YAML, unknown columns, duplicates within one import, data over the row and byte caps (pasted or
 * as a file), and users without the permission: each a page with a clear 4xx and its message,
 * never a 500, and nothing written (checked through the REST API).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { postImport, postImportFile, previewRows } from '../helpers/import-page.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import { grant, type Json, makeDeviceType, makeRole, makeSite, makeUser, uniq } from '../factories/index.js';

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

describe('bad input', () => {
  const csvError = async (data: string, fields: Record<string, string> = {}) => {
    const res = await post('/dcim/sites/', { data, _apply: '1', ...fields });
    expect(res.statusCode).toBe(400);
    return /<div class="alert" role="alert"><p>(.*?)<\/p>/s.exec(res.body)?.[1] ?? res.body;
  };

  it('malformed CSV: an unclosed quote and a row of the wrong width name their row', async () => {
    expect(await csvError('name,slug\na,a\n"b,b\n')).toBe('Row 2: a quoted field is not closed.');
    expect(await csvError('name,slug\na,a\nb,b,c\n')).toBe('Row 2: 3 fields where the header has 2.');
  });

  it('invalid JSON and YAML name their line', async () => {
    expect(await csvError('[\n{"name": "a",}\n]')).toMatch(/^Invalid JSON at line 2/);
    expect(await csvError('name: a\nslug: [b\n', { format: 'yaml' })).toMatch(/^Invalid YAML at line \d/);
  });

  it('a NUL character names its line, or its record when JSON writes it as an escape', async () => {
    expect(await csvError('name,slug\na,a\nb\u0000,b\n')).toBe('Line 3: a NUL character is not allowed.');
    // the six characters \u0000 in the JSON text: a NUL only once parsed
    expect(await csvError('[{"name": "a", "slug": "a"}, {"name": "b\\u0000", "slug": "b"}]')).toBe(
      'Record 2: a NUL character is not allowed.',
    );
  });

  it('unknown columns are named and nothing is written', async () => {
    const name = uniq('unk');
    expect(await csvError(`name,slug,colour,size\n${name},${name},red,1`)).toBe('Unknown columns: colour, size.');
    expect((await api(`/api/dcim/sites/?name=${name}`)).count).toBe(0);
  });

  it('duplicates within one import: the second row is named', async () => {
    const f = await fixture();
    const data = `name,site,device_type,role\n${f.prefix},${f.site.name},${f.type.model},${f.role.name}\n${f.prefix},${f.site.name},${f.type.model},${f.role.name}`;
    const res = await post('/dcim/devices/', { data, _apply: '1' });
    expect(res.statusCode).toBe(400);
    const rows = previewRows(res.body);
    expect(rows[0]![1]).not.toBe('fail');
    expect(rows[1]![1]).toBe('fail');
    expect(await namesAt(`/api/dcim/devices/?name=${f.prefix}`)).toEqual([]);
  });

  it('a file over IMPORT_MAX_BYTES is refused on the page with its message', async () => {
    const name = uniq('big');
    const file = `name,slug,description\r\n${name},${name},${'x'.repeat(300_000)}\r\n`;
    const res = await postImportFile(t, admin, '/dcim/sites/', file, { _apply: '1' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The data is larger than the 20000 bytes one import takes.');
    expect((await api(`/api/dcim/sites/?name=${name}`)).count).toBe(0);
  });

  it('over the row cap or the byte cap: a message, nothing written', async () => {
    const p = uniq('cap');
    const rows = Array.from({ length: 51 }, (_, i) => `${p}-${i},${p}-${i}`);
    expect(await csvError(`name,slug\n${rows.join('\n')}`)).toBe('The data has 51 rows; one import takes at most 50.');
    expect(await csvError(`name,slug,description\n${p},${p},${'x'.repeat(20001)}`)).toBe(
      'The data is larger than the 20000 bytes one import takes.',
    );
    expect((await api(`/api/dcim/sites/?name__isw=${p}`)).count).toBe(0);
  });

  it('a user without add permission gets 403; with view and add only, an id row is refused', async () => {
    const viewer = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [viewer.id] });
    const b = await signIn(t, viewer.username, viewer.password);
    expect((await b.request('GET', '/dcim/sites/import/')).statusCode).toBe(403);
    const adder = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view', 'add'], users: [adder.id] });
    const c = await signIn(t, adder.username, adder.password);
    const site = await makeSite(t);
    const res = await post('/dcim/sites/', { data: `id,description\n${site.id},changed`, _apply: '1' }, c);
    expect(res.statusCode).toBe(403);
    expect((await api(`/api/dcim/sites/${site.id}/`)).description).toBe('');
    const name = uniq('added');
    const ok = await post('/dcim/sites/', { data: `name,slug\n${name},${name}`, _apply: '1' }, c);
    expect(ok.statusCode, ok.body).toBe(303);
  });
});
