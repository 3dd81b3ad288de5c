/**
 * The import page every writable model gets (`<list>import/`, web/model-pages/import.page.ts):
 * CSV, JSON and YAML posted as a browser posts the form, a dry run that names each failing row and
 * writes nothing, an import that writes every row or none. Outcomes are read back through the
 * REST API and the change log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import {
  grant,
  type Json,
  makeCustomField,
  makeDevice,
  makeDeviceType,
  makeManufacturer,
  makeRole,
  makeSite,
  makeTag,
  makeUser,
  uniq,
} from '../factories/index.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp({ IMPORT_MAX_ROWS: '50', IMPORT_MAX_BYTES: '20000' });
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

function tokenOf(page: string): string {
  const m = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

/** posts the import form of `list` as a browser does, with the page's CSRF token */
async function postImport(b: WebSession, list: string, fields: Record<string, string>) {
  const page = await b.request('GET', `${list}import/`);
  const body = new URLSearchParams({ csrfmiddlewaretoken: tokenOf(page.body), format: 'auto', ...fields });
  return t.app.inject({
    method: 'POST',
    url: `${list}import/`,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: b.cookieHeader() },
    payload: body.toString(),
  });
}

const api = async (url: string) => (await t.get(url)).json();
const namesAt = async (url: string) => ((await api(url)).results as Json[]).map((r) => r.name as string).sort();

/** the preview table's rows as [row, outcome text, errors text] */
function previewRows(page: string): string[][] {
  const start = page.indexOf('id="import-preview"');
  const table = page.slice(start, page.indexOf('</table>', start));
  return [...table.matchAll(/<tr><td>(\d+)<\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/gs)].map((m) =>
    m.slice(1).map((x) =>
      x
        .replace(/<[^>]+>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')
        .trim(),
    ),
  );
}

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

async function changesFor(ids: number[]): Promise<number> {
  let n = 0;
  for (const id of ids)
    n += (await api(`/api/extras/object-changes/?changed_object_type=dcim.device&changed_object_id=${id}`)).count;
  return n;
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
    const dry = await postImport(admin, '/dcim/devices/', { data: deviceCsv(f, 3), _preview: '1' });
    expect(dry.statusCode).toBe(400);
    const rows = previewRows(dry.body);
    expect(rows.map((r) => r[0])).toEqual(['1', '2', '3', '4', '5']);
    expect(rows[2]![1]).toBe('fail');
    expect(rows[2]![2]).toContain('site: No site with name "no-such-site"');
    expect(rows.filter((r) => r[1] === 'fail')).toHaveLength(1);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);

    // the same bad data committed: refused, nothing written
    const refused = await postImport(admin, '/dcim/devices/', { data: deviceCsv(f, 3), _apply: '1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('1 of 5 rows fail; nothing was written.');
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);

    // fixed: a dry run writes nothing and says what would happen
    const ok = await postImport(admin, '/dcim/devices/', { data: deviceCsv(f), _preview: '1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Dry run: 5 would be created and 0 updated; nothing was written.');
    expect(previewRows(ok.body).map((r) => r[1])).toEqual(['create', 'create', 'create', 'create', 'create']);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);
    // neither the dry runs nor the refused import left a change record
    expect((await api('/api/extras/object-changes/?limit=1')).count).toBe(changesBefore);

    const done = await postImport(admin, '/dcim/devices/', { data: deviceCsv(f), _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    const devices = (await api(`/api/dcim/devices/?name__isw=${f.prefix}`)).results as Json[];
    expect(devices.map((d) => d.name).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `${f.prefix}-${i}`));
    for (const d of devices) {
      expect(d.site.id).toBe(f.site.id);
      expect(d.device_type.id).toBe(f.type.id);
      expect(d.status.value).toBe('active');
    }
    const ids = devices.map((d) => d.id as number).sort((a, b) => a - b);
    expect(await changesFor(ids)).toBe(5);
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
    const res = await postImport(admin, '/dcim/devices/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const [d] = (await api(`/api/dcim/devices/?name=${name}`)).results as Json[];
    expect(d!.comments).toBe('say "hi"\nline two; still');
    expect(d!.position).toBeNull();
  });
});

describe('rows naming objects other rows make', () => {
  it('locations whose parents come in the same import, in any order; a parent no row makes is an error', async () => {
    const site = await makeSite(t);
    const p = uniq('loc');
    const data = [
      'name,slug,site,parent',
      `${p}-c,${p}-c,${site.name},${p}-b`,
      `${p}-a,${p}-a,${site.name},`,
      `${p}-b,${p}-b,${site.name},${p}-a`,
    ].join('\n');
    const dry = await postImport(admin, '/dcim/locations/', { data, _preview: '1' });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(previewRows(dry.body).map((r) => r[1])).toEqual(['create', 'create', 'create']);
    expect((await api(`/api/dcim/locations/?name__isw=${p}`)).count).toBe(0);
    const done = await postImport(admin, '/dcim/locations/', { data, _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    const locs = (await api(`/api/dcim/locations/?name__isw=${p}`)).results as Json[];
    const parentOf = Object.fromEntries(locs.map((l) => [l.name, l.parent?.name ?? null]));
    expect(parentOf).toEqual({ [`${p}-a`]: null, [`${p}-b`]: `${p}-a`, [`${p}-c`]: `${p}-b` });
    const orphan = await postImport(admin, '/dcim/locations/', {
      data: `name,slug,site,parent\n${p}-x,${p}-x,${site.name},${p}-nowhere`,
      _preview: '1',
    });
    expect(orphan.statusCode).toBe(400);
    expect(previewRows(orphan.body)[0]![2]).toContain(`parent: No location with name "${p}-nowhere"`);
  });

  it('interfaces whose LAG comes in the same import, on the same device', async () => {
    const device = await makeDevice(t);
    const other = await makeDevice(t);
    // the same LAG name on another device must not be taken
    expect((await t.post('/api/dcim/interfaces/', { device: other.id, name: 'bond0', type: 'lag' })).statusCode).toBe(
      201,
    );
    const data = `device,name,type,lag\n${device.name},eth0,1000base-t,bond0\n${device.name},bond0,lag,`;
    const res = await postImport(admin, '/dcim/interfaces/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const ifaces = (await api(`/api/dcim/interfaces/?device_id=${device.id}`)).results as Json[];
    const bond = ifaces.find((i) => i.name === 'bond0')!;
    expect(ifaces.find((i) => i.name === 'eth0')!.lag.id).toBe(bond.id);
  });
});

describe('tags and custom fields', () => {
  it('tags by slug in one quoted cell, custom fields typed from their cells', async () => {
    const [a, b] = [await makeTag(t), await makeTag(t)];
    const count = await makeCustomField(t, { type: 'integer', content_types: ['dcim.site'] });
    const flag = await makeCustomField(t, { type: 'boolean', content_types: ['dcim.site'] });
    const name = uniq('tagged');
    const data = `name,slug,tags,cf_${count.name},cf_${flag.name}\n${name},${name},"${a.slug},${b.slug}",42,yes`;
    const res = await postImport(admin, '/dcim/sites/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const [site] = (await api(`/api/dcim/sites/?name=${name}`)).results as Json[];
    expect(site!.tags.map((x: Json) => x.slug).sort()).toEqual([a.slug, b.slug].sort());
    expect(site!.custom_fields[count.name]).toBe(42);
    expect(site!.custom_fields[flag.name]).toBe(true);
    const bad = await postImport(admin, '/dcim/sites/', {
      data: `name,slug,tags,cf_${count.name}\n${name}2,${name}2,no-such-tag,many`,
      _preview: '1',
    });
    expect(bad.statusCode).toBe(400);
    const errors = previewRows(bad.body)[0]![2]!;
    expect(errors).toContain('tags: No tag with slug "no-such-tag"');
    expect(errors).toContain(`cf_${count.name}:`);
    // JSON may give them as the API does
    const json = JSON.stringify([{ name: `${name}j`, slug: `${name}j`, custom_fields: { [count.name]: 7 } }]);
    const viaApiShape = await postImport(admin, '/dcim/sites/', { data: json, _apply: '1' });
    expect(viaApiShape.statusCode, viaApiShape.body).toBe(303);
    expect((await api(`/api/dcim/sites/?name=${name}j`)).results[0].custom_fields[count.name]).toBe(7);
  });
});

describe('an uploaded file', () => {
  it('a multipart post with the file in upload_file imports it (the CSRF token read from the form)', async () => {
    const page = await admin.request('GET', '/dcim/sites/import/');
    const name = uniq('upl');
    const boundary = 'xyzzy42';
    const part = (field: string, value: string, file?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"${file ? `; filename="${file}"\r\nContent-Type: text/csv` : ''}\r\n\r\n${value}\r\n`;
    const payload = `${part('csrfmiddlewaretoken', tokenOf(page.body))}${part('data', '')}${part('format', 'auto')}${part('upload_file', `\ufeffname,slug\r\n${name},${name}\r\n`, 'sites.csv')}${part('_apply', '1')}--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/import/',
      headers: {
        accept: 'text/html',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: admin.cookieHeader(),
      },
      payload,
    });
    expect(res.statusCode, res.body).toBe(303);
    expect((await api(`/api/dcim/sites/?name=${name}`)).count).toBe(1);
  });

  it('a file over IMPORT_MAX_BYTES is refused on the page with its message', async () => {
    const page = await admin.request('GET', '/dcim/sites/import/');
    const boundary = 'big42';
    const name = uniq('big');
    const file = `name,slug,description\r\n${name},${name},${'x'.repeat(300_000)}\r\n`;
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n${tokenOf(page.body)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="upload_file"; filename="big.csv"\r\n\r\n${file}\r\n--${boundary}\r\nContent-Disposition: form-data; name="_apply"\r\n\r\n1\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/import/',
      headers: {
        accept: 'text/html',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: admin.cookieHeader(),
      },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The data is larger than the 20000 bytes one import takes.');
    expect((await api(`/api/dcim/sites/?name=${name}`)).count).toBe(0);
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
    const dry = await postImport(admin, '/dcim/devices/', { data: JSON.stringify(rows(3)), _preview: '1' });
    expect(dry.statusCode).toBe(400);
    const p = previewRows(dry.body);
    expect(p[2]![1]).toBe('fail');
    expect(p[2]![2]).toContain('site:');
    // pretty-printed, each object is named by the line it starts on
    const pretty = await postImport(admin, '/dcim/devices/', { data: JSON.stringify(rows(3), null, 2), _preview: '1' });
    expect(pretty.body).toContain('<th scope="col">Line</th>');
    expect(previewRows(pretty.body).map((r) => r[0])).toEqual(['2', '9', '16', '23', '30']);
    const done = await postImport(admin, '/dcim/devices/', { data: JSON.stringify(rows()), _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toHaveLength(5);
  });

  it('YAML: a list, and several documents', async () => {
    const f = await fixture();
    const item = (i: number, site: string) =>
      `name: ${f.prefix}-${i}\nsite: ${site}\ndevice_type: ${f.type.model}\nrole: ${f.role.name}\n`;
    const docs = [1, 2, 3, 4, 5].map((i) => item(i, i === 3 ? 'no-such-site' : f.site.name)).join('---\n');
    const dry = await postImport(admin, '/dcim/devices/', { data: `---\n${docs}`, _preview: '1' });
    expect(dry.statusCode).toBe(400);
    expect(previewRows(dry.body)[2]![1]).toBe('fail');
    // each document by the line it starts on
    expect(previewRows(dry.body).map((r) => r[0])).toEqual(['2', '7', '12', '17', '22']);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toEqual([]);
    const list = [1, 2, 3, 4, 5].map((i) => `- ${item(i, f.site.name).trimEnd().replace(/\n/g, '\n  ')}`).join('\n');
    const done = await postImport(admin, '/dcim/devices/', { data: list, format: 'yaml', _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    expect(await namesAt(`/api/dcim/devices/?name__isw=${f.prefix}`)).toHaveLength(5);
  });
});

describe('updates by id', () => {
  it('an id column updates that object; the dry run names it', async () => {
    const device = await makeDevice(t);
    const data = `id,serial,status\n${device.id},SN-${device.id},offline`;
    const dry = await postImport(admin, '/dcim/devices/', { data, _preview: '1' });
    expect(dry.statusCode).toBe(200);
    expect(previewRows(dry.body)[0]![1]).toBe(`update ${device.name}`);
    expect((await api(`/api/dcim/devices/${device.id}/`)).serial).toBe('');
    const done = await postImport(admin, '/dcim/devices/', { data, _apply: '1' });
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
    const res = await postImport(admin, '/dcim/sites/', { data, _apply: '1' });
    expect(res.statusCode).toBe(400);
    const rows = previewRows(res.body);
    expect(rows.map((r) => r[1] === 'fail')).toEqual([false, true, false, false, true, false]);
    expect(rows[1]![2]).toMatch(/^status: /);
    for (const s of sites) expect((await api(`/api/dcim/sites/${s.id}/`)).status.value).toBe('active');
  });

  it("an id that names nothing is that row's error", async () => {
    const res = await postImport(admin, '/dcim/sites/', { data: 'id,description\n999999999,x', _apply: '1' });
    expect(res.statusCode).toBe(400);
    expect(previewRows(res.body)[0]![2]).toContain('id: No site with id 999999999.');
  });
});

describe('bad input', () => {
  const csvError = async (data: string, fields: Record<string, string> = {}) => {
    const res = await postImport(admin, '/dcim/sites/', { data, _apply: '1', ...fields });
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

  it('unknown columns are named and nothing is written', async () => {
    const name = uniq('unk');
    expect(await csvError(`name,slug,colour,size\n${name},${name},red,1`)).toBe('Unknown columns: colour, size.');
    expect((await api(`/api/dcim/sites/?name=${name}`)).count).toBe(0);
  });

  it('duplicates within one import: the second row is named', async () => {
    const f = await fixture();
    const data = `name,site,device_type,role\n${f.prefix},${f.site.name},${f.type.model},${f.role.name}\n${f.prefix},${f.site.name},${f.type.model},${f.role.name}`;
    const res = await postImport(admin, '/dcim/devices/', { data, _apply: '1' });
    expect(res.statusCode).toBe(400);
    const rows = previewRows(res.body);
    expect(rows[0]![1]).not.toBe('fail');
    expect(rows[1]![1]).toBe('fail');
    expect(await namesAt(`/api/dcim/devices/?name=${f.prefix}`)).toEqual([]);
  });

  it("a name several objects share is narrowed by the row's site (racks)", async () => {
    const [a, b] = [await makeSite(t), await makeSite(t)];
    const rack = uniq('rack');
    const inA = await t.post('/api/dcim/racks/', { name: rack, site: a.id });
    const inB = await t.post('/api/dcim/racks/', { name: rack, site: b.id });
    expect([inA.statusCode, inB.statusCode]).toEqual([201, 201]);
    const f = await fixture();
    const data = `name,site,rack,device_type,role\n${f.prefix},${b.name},${rack},${f.type.model},${f.role.name}`;
    const res = await postImport(admin, '/dcim/devices/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const [d] = (await api(`/api/dcim/devices/?name=${f.prefix}`)).results as Json[];
    expect(d!.rack.id).toBe(inB.json().id);
  });

  it("NetBox's manufacturer column picks the device type of that model among manufacturers", async () => {
    const model = uniq('Same');
    const [m1, m2] = [await makeManufacturer(t), await makeManufacturer(t)];
    await makeDeviceType(t, { manufacturer: m1.id, model, slug: `${model}-1` });
    const type2 = await makeDeviceType(t, { manufacturer: m2.id, model, slug: `${model}-2` });
    const f = await fixture();
    const head = 'name,site,device_type,role';
    const shared = await postImport(admin, '/dcim/devices/', {
      data: `${head}\n${f.prefix},${f.site.name},${model},${f.role.name}`,
      _preview: '1',
    });
    expect(shared.statusCode).toBe(400);
    expect(previewRows(shared.body)[0]![2]).toContain(
      `device_type: Several device type objects have model "${model}".`,
    );
    const page = await admin.request('GET', '/dcim/devices/import/');
    expect(page.body).toMatch(
      /<code>manufacturer<\/code><\/td><td><\/td><td>manufacturer by name \(or id\): only to find the device_type, not stored/,
    );
    const res = await postImport(admin, '/dcim/devices/', {
      data: `${head},manufacturer\n${f.prefix},${f.site.name},${model},${f.role.name},${m2.name}`,
      _apply: '1',
    });
    expect(res.statusCode, res.body).toBe(303);
    const [d] = (await api(`/api/dcim/devices/?name=${f.prefix}`)).results as Json[];
    expect(d!.device_type.id).toBe(type2.id);
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
    const res = await postImport(c, '/dcim/sites/', { data: `id,description\n${site.id},changed`, _apply: '1' });
    expect(res.statusCode).toBe(403);
    expect((await api(`/api/dcim/sites/${site.id}/`)).description).toBe('');
    const name = uniq('added');
    const ok = await postImport(c, '/dcim/sites/', { data: `name,slug\n${name},${name}`, _apply: '1' });
    expect(ok.statusCode, ok.body).toBe(303);
  });
});
