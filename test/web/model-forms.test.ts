/**
 * The add, edit, clone and delete pages every model gets (web/model-pages/edit.page.ts,
 * delete.page.ts): forms posted as a browser posts them (with the page's CSRF token), checked
 * through the REST API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/core/context.js';
import { hasPages } from '../../src/web/model-pages/index.js';
import { listPath } from '../../src/web/navigation/menu.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { formValues, postForm as postFormOf, tokenOf } from '../helpers/web-forms.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import { grant, makeDevice, makeRack, makeSite, makeTag, makeUser, uniq } from '../factories/index.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const postForm = (...args: Parameters<typeof postFormOf> extends [TestApp, ...infer R] ? R : never) =>
  postFormOf(t, ...args);
const api = async (url: string) => (await t.get(url)).json();

describe('the add form', () => {
  it('adds a site: 303 to the new object, written as the API writes it, with a change record', async () => {
    const name = uniq('formsite');
    const form = await admin.request('GET', '/dcim/sites/add/');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<h1>Add a new site</h1>');
    expect(form.body).toMatch(
      /<label for="id_name">Name <span class="required" aria-hidden="true">\*<\/span><\/label>/,
    );
    expect(form.body).toMatch(/<input type="text" id="id_name" name="name" value="" required maxlength="100"/);
    expect(form.body).toContain('name="_addanother"');
    const tag = await makeTag(t);
    const res = await postForm(admin, '/dcim/sites/add/', [
      ['name', name],
      ['slug', name],
      ['status', 'planned'],
      ['description', 'made by a form'],
      ['tags', String(tag.id)],
      ['comments', 'hello'],
      ['_create', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const site = (await api(`/api/dcim/sites/?slug=${name}`)).results[0];
    expect(res.headers.location).toBe(`/dcim/sites/${site.id}/?saved=created`);
    expect(site).toMatchObject({
      name,
      status: { value: 'planned' },
      description: 'made by a form',
      comments: 'hello',
    });
    expect(site.tags.map((x: { id: number }) => x.id)).toEqual([tag.id]);
    const changes = await api(`/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.id}`);
    expect(changes.results.map((c: { action: { value: string } }) => c.action.value)).toEqual(['create']);
    const page = await admin.request('GET', res.headers.location as string);
    expect(page.body).toContain('Created.');
  });

  it('adds a rack choosing its site', async () => {
    const site = await makeSite(t);
    const name = uniq('formrack');
    const form = await admin.request('GET', '/dcim/racks/add/');
    expect(form.body).toContain(`<option value="${site.id}">${site.name}</option>`);
    const res = await postForm(admin, '/dcim/racks/add/', [
      ['name', name],
      ['site', String(site.id)],
      ['u_height', '42'],
      ['location', ''],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const rack = (await api(`/api/dcim/racks/?name=${name}`)).results[0];
    expect(rack.site.id).toBe(site.id);
    expect(rack.location).toBeNull();
  });

  it('takes its initial values from the query string (as Clone does)', async () => {
    const site = await makeSite(t);
    const tag = await makeTag(t);
    const res = await admin.request('GET', `/dcim/racks/add/?site=${site.id}&status=planned&tags=${tag.id}&desc=x`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<option value="${site.id}" selected>${site.name}</option>`);
    expect(res.body).toContain('<option value="planned" selected>Planned</option>');
    expect(res.body).toContain(`<option value="${tag.id}" selected>${tag.name}</option>`);
  });

  it('offers only the chosen site racks on the device form (picker filters), also after a picker search', async () => {
    const a = await makeSite(t);
    const b = await makeSite(t);
    const ra = await makeRack(t, a);
    const rb = await makeRack(t, b);
    const res = await admin.request('GET', `/dcim/devices/add/?site=${a.id}`);
    expect(res.statusCode).toBe(200);
    const rackSelect = /<select[^>]*name="rack"[^>]*>.*?<\/select>/s.exec(res.body)![0];
    expect(rackSelect).toContain(`data-picker-filters="site_id=${a.id}"`);
    expect(rackSelect).toContain(ra.name);
    expect(rackSelect).not.toContain(rb.name);
    // the form posted back to itself (a picker's Search): typed values kept, nothing written
    const name = uniq('notwritten');
    const again = await postForm(
      admin,
      '/dcim/devices/add/',
      [
        ['name', name],
        ['site', String(b.id)],
        ['_picker', 'rack'],
      ],
      { formUrl: '/dcim/devices/add/' },
    );
    expect(again.statusCode).toBe(200);
    const select2 = /<select[^>]*name="rack"[^>]*>.*?<\/select>/s.exec(again.body)![0];
    expect(select2).toContain(rb.name);
    expect(select2).not.toContain(ra.name);
    expect(again.body).toContain(`value="${name}"`);
    expect((await api(`/api/dcim/devices/?name=${name}`)).count).toBe(0);
  });

  it('shows a duplicate name as a 400 beside the field, keeping what was typed, writing nothing', async () => {
    const site = await makeSite(t);
    const before = (await api('/api/dcim/sites/?limit=1')).count;
    const res = await postForm(admin, '/dcim/sites/add/', [
      ['name', site.name],
      ['slug', uniq('other')],
      ['description', 'typed <b>text</b>'],
      ['status', 'retired'],
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/<p class="field-error" id="id_name-error">[^<]*already exists[^<]*<\/p>/);
    expect(res.body).toMatch(
      /id="id_name" name="name" value="[^"]+" required maxlength="100" aria-invalid="true" aria-describedby="id_name-error"/,
    );
    expect(res.body).toContain('value="typed &lt;b&gt;text&lt;/b&gt;"');
    expect(res.body).toContain('<option value="retired" selected>Retired</option>');
    expect((await api('/api/dcim/sites/?limit=1')).count).toBe(before);
  });

  it('adds a device choosing its type, role, site and rack', async () => {
    const proto = await makeDevice(t);
    const rack = await makeRack(t, proto.site);
    const name = uniq('formdev');
    const res = await postForm(admin, '/dcim/devices/add/', [
      ['name', name],
      ['device_type', String(proto.device_type.id)],
      ['role', String(proto.role.id)],
      ['device_role', ''],
      ['site', String(proto.site.id)],
      ['rack', String(rack.id)],
      ['position', ''],
      ['status', 'active'],
    ]);
    expect(res.statusCode, /<p class="field-error"[^>]*>[^<]*|<div class="alert"[^]*?<\/div>/.exec(res.body)?.[0]).toBe(
      303,
    );
    const dev = (await api(`/api/dcim/devices/?name=${name}`)).results[0];
    expect(dev).toMatchObject({ rack: { id: rack.id }, role: { id: proto.role.id }, position: null });
  });

  it('ignores fields it does not have; "add another" comes back to the add form', async () => {
    const name = uniq('unknown');
    const res = await postForm(admin, '/dcim/sites/add/', [
      ['name', name],
      ['slug', name],
      ['no_such_field', 'x'],
      ['id', '999999'],
      ['_addanother', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toMatch(/^\/dcim\/sites\/add\//);
    expect((await api(`/api/dcim/sites/?slug=${name}`)).count).toBe(1);
  });

  it('refuses a post without a valid CSRF token, writing nothing', async () => {
    const name = uniq('csrf');
    for (const token of [null, 'A'.repeat(64)]) {
      const res = await postForm(
        admin,
        '/dcim/sites/add/',
        [
          ['name', name],
          ['slug', name],
        ],
        { token },
      );
      expect(res.statusCode).toBe(403);
    }
    expect((await api(`/api/dcim/sites/?slug=${name}`)).count).toBe(0);
  });

  it('follows a same-site return_url and not a foreign one', async () => {
    for (const [ret, expected] of [
      ['/dcim/racks/', '/dcim/racks/'],
      ['//evil.example/', null],
      ['https://evil.example/', null],
    ] as const) {
      const name = uniq('ret');
      const res = await postForm(admin, '/dcim/sites/add/', [
        ['name', name],
        ['slug', name],
        ['return_url', ret],
      ]);
      expect(res.statusCode, res.body).toBe(303);
      const site = (await api(`/api/dcim/sites/?slug=${name}`)).results[0];
      expect(res.headers.location).toBe(expected ?? `/dcim/sites/${site.id}/?saved=created`);
    }
  });
});

describe('the edit form', () => {
  it('shows the object, saves a PATCH of the form, and leaves a change record', async () => {
    const site = await makeSite(t, { description: 'old', status: 'planned', facility: 'F1' });
    const form = await admin.request('GET', `/dcim/sites/${site.id}/edit/`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`<h1>Editing ${site.name}</h1>`);
    expect(form.body).toContain('value="old"');
    expect(form.body).toContain('<option value="planned" selected>Planned</option>');
    expect(form.body).toContain('name="_update"');
    const res = await postForm(admin, `/dcim/sites/${site.id}/edit/`, [
      ['name', site.name],
      ['slug', site.slug],
      ['status', 'planned'],
      ['facility', 'F1'],
      ['description', 'new'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/dcim/sites/${site.id}/?saved=updated`);
    const now = await api(`/api/dcim/sites/${site.id}/`);
    expect(now).toMatchObject({ description: 'new', facility: 'F1', status: { value: 'planned' } });
    const changes = await api(`/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.id}`);
    expect(changes.results.map((c: { action: { value: string } }) => c.action.value).sort()).toEqual([
      'create',
      'update',
    ]);
  });

  it('pre-fills an add form from the object through the clone query', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site, { status: 'reserved' });
    const res = await admin.request('GET', `/dcim/racks/add/?site=${site.id}&status=${rack.status.value}`);
    expect(res.body).toContain(`<option value="${site.id}" selected>`);
    expect(res.body).toContain('<option value="reserved" selected>Reserved</option>');
  });
});

describe('a form posted back unchanged', () => {
  it('saves every kind of object as it was (edit forms read back what they show)', async () => {
    const device = await makeDevice(t, { serial: 'S1', position: null, local_context_data: { a: [1, 2] } });
    const rack = await makeRack(t, device.site);
    const objects: Array<[string, number]> = [
      ['/dcim/devices/', device.id],
      ['/dcim/sites/', device.site.id],
      ['/dcim/racks/', rack.id],
      ['/dcim/device-types/', device.device_type.id],
    ];
    for (const [list, id] of objects) {
      const before = await api(`/api${list}${id}/`);
      const page = await admin.request('GET', `${list}${id}/edit/`);
      expect(page.statusCode, list).toBe(200);
      const values = formValues(page.body, `${list}${id}/edit/`);
      expect(values.length, list).toBeGreaterThan(4);
      const res = await postForm(admin, `${list}${id}/edit/`, values, {
        token: tokenOf(page.body),
      });
      expect(
        res.statusCode,
        `${list}: ${/<p class="field-error"[^>]*>[^<]*|<div class="alert"[^]*?<\/div>/.exec(res.body)?.[0]}`,
      ).toBe(303);
      const after = await api(`/api${list}${id}/`);
      expect({ ...after, last_updated: null }, list).toEqual({ ...before, last_updated: null });
    }
  });

  it('reports a JSON field that does not parse beside it, writing nothing', async () => {
    const device = await makeDevice(t);
    const page = await admin.request('GET', `/dcim/devices/${device.id}/edit/`);
    const values = formValues(page.body, `/dcim/devices/${device.id}/edit/`).map(([k, v]): [string, string] =>
      k === 'local_context_data' ? [k, '{not json'] : [k, v],
    );
    const res = await postForm(admin, `/dcim/devices/${device.id}/edit/`, values, { token: tokenOf(page.body) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<p class="field-error" id="id_local_context_data-error">Enter a valid JSON.</p>');
    expect(res.body).toContain('{not json</textarea>');
  });
});

describe('custom fields on the form', () => {
  it('shows them as cf_<name> inputs and writes custom_fields', async () => {
    const name = uniq('cf').replace(/-/g, '_');
    await t.post('/api/extras/custom-fields/', {
      name,
      type: 'integer',
      content_types: ['dcim.site'],
      label: 'Floors',
    });
    const form = await admin.request('GET', '/dcim/sites/add/');
    expect(form.body).toContain(`<label for="id_cf_${name}">Floors</label>`);
    const site = uniq('cfsite');
    const res = await postForm(admin, '/dcim/sites/add/', [
      ['name', site],
      ['slug', site],
      [`cf_${name}`, '7'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect((await api(`/api/dcim/sites/?slug=${site}`)).results[0].custom_fields[name]).toBe(7);
  });
});

describe('the delete page', () => {
  it('asks first, then deletes and goes to the list', async () => {
    const site = await makeSite(t);
    await makeRack(t, site);
    const page = await admin.request('GET', `/dcim/sites/${site.id}/delete/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Delete ${site.name}?</h1>`);
    expect(page.body).toContain('name="confirm" value="true"');
    expect(page.body).toMatch(/Racks<\/a><\/th><td class="num">1<\/td><td>protected/);
    const other = await makeSite(t);
    const res = await postForm(admin, `/dcim/sites/${other.id}/delete/`, [['confirm', 'true']]);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dcim/sites/');
    expect((await t.get(`/api/dcim/sites/${other.id}/`)).statusCode).toBe(404);
  });

  it('shows a refused (protected) delete with the API message, deleting nothing', async () => {
    const site = await makeSite(t);
    await makeRack(t, site);
    const res = await postForm(admin, `/dcim/sites/${site.id}/delete/`, [['confirm', 'true']]);
    expect(res.statusCode).toBe(409);
    expect(res.body).toMatch(
      /<div class="alert" role="alert"><p>Unable to delete object[^<]*dependent objects[^<]*<\/p>/,
    );
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(200);
  });
});

describe('permissions', () => {
  it('a viewer gets no Edit or Delete buttons and 403 on the edit and delete pages', async () => {
    const site = await makeSite(t);
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id] });
    const b = await signIn(t, u.username, u.password);
    const page = await b.request('GET', `/dcim/sites/${site.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('/edit/"');
    expect(page.body).not.toContain('/delete/"');
    expect((await b.request('GET', `/dcim/sites/${site.id}/edit/`)).statusCode).toBe(403);
    expect((await b.request('GET', `/dcim/sites/${site.id}/delete/`)).statusCode).toBe(403);
    expect((await b.request('GET', '/dcim/sites/add/')).statusCode).toBe(403);
    const res = await postForm(b, `/dcim/sites/${site.id}/edit/`, [['name', 'x']], { formUrl: '/' });
    expect(res.statusCode).toBe(403);
    expect((await api(`/api/dcim/sites/${site.id}/`)).name).toBe(site.name);
  });

  it('a user constrained to one site gets 404 for another site and may edit only theirs', async () => {
    const mine = await makeSite(t);
    const theirs = await makeSite(t);
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view', 'change'],
      users: [u.id],
      constraints: { id: mine.id },
    });
    const b = await signIn(t, u.username, u.password);
    expect((await b.request('GET', `/dcim/sites/${theirs.id}/`)).statusCode).toBe(404);
    expect((await b.request('GET', `/dcim/sites/${theirs.id}/edit/`)).statusCode).toBe(404);
    expect((await b.request('GET', `/dcim/sites/${mine.id}/edit/`)).statusCode).toBe(200);
  });

  it('an anonymous visitor is sent to sign in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dcim/sites/add/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login/?next=%2Fdcim%2Fsites%2Fadd%2F');
  });
});

describe('every model', () => {
  it('has an add form that renders for a superuser, with no script but the layout one', async () => {
    const ctx = (t.app as unknown as { inventory: AppContext }).inventory;
    const device = await makeDevice(t);
    expect(device.id).toBeTruthy();
    const failed: string[] = [];
    for (const model of ctx.registry.all()) {
      if (model.readOnly || !hasPages(model)) continue;
      const res = await admin.request('GET', `${listPath(model)}add/`);
      const scripts = res.body.match(/<script/g) ?? [];
      const main = res.body.slice(res.body.indexOf('<main'));
      const ids = [...main.matchAll(/<(?:input|select|textarea)[^>]*\sid="([^"]+)"/g)].map((m) => m[1]!);
      const unlabelled = ids.filter((id) => !main.includes(`<label for="${id}"`));
      if (unlabelled.length) failed.push(`${model.name}: no label for ${unlabelled.join(', ')}`);
      if (res.statusCode !== 200 || scripts.length > 1 || res.body.includes('style='))
        failed.push(`${model.name}: ${res.statusCode}`);
    }
    expect(failed).toEqual([]);
  });
});
