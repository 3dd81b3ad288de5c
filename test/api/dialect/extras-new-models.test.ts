/**
 * NetBox 4.3-4.4's config context profiles, table configs, tagged objects, object types and the
 * change log under core: served in the 4.4 dialect only (the change log in both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Api44, ids, makeSite, makeTag, makeUser, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  t = await makeTestApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

describe('/api/extras/config-context-profiles/', () => {
  it('creates, reads, updates and deletes a profile in 4.4; 404 in 3.4; refuses a bad schema', async () => {
    const schema = { type: 'object', properties: { ntp: { type: 'array' } } };
    const made = await v44.post('/api/extras/config-context-profiles/', { name: uniq('ccp'), schema, tags: [] });
    expect(made.statusCode, made.body).toBe(201);
    const p = made.json();
    expect(p).toMatchObject({ schema, data_source: null, data_file: null, data_synced: null, tags: [] });
    expect(p).not.toHaveProperty('custom_fields');
    expect((await t.get(`/api/extras/config-context-profiles/${p.id}/`)).statusCode).toBe(404);
    const bad = await v44.patch(`/api/extras/config-context-profiles/${p.id}/`, { schema: { required: 'ntp' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().schema[0]).toMatch(/^Invalid JSON schema definition: /);
    expect((await v44.get(`/api/extras/config-context-profiles/${p.id}/`)).json().schema).toEqual(schema);
    const brief = (await v44.get(`/api/extras/config-context-profiles/?brief=1&name=${p.name}`)).json().results[0];
    expect(brief).toEqual({ id: p.id, url: p.url, display: p.name, name: p.name, description: '' });
    expect((await v44.del(`/api/extras/config-context-profiles/${p.id}/`)).statusCode).toBe(204);
  });
});

describe('/api/extras/table-configs/', () => {
  it('keeps a choice of columns for a table, filtered by object type and usability', async () => {
    const user = await makeUser(t);
    const data = { object_type: 'dcim.site', table: 'SiteTable', columns: ['name', 'status'], ordering: ['-name'] };
    const mine = await v44.post('/api/extras/table-configs/', {
      ...data,
      name: uniq('tc'),
      user: user.id,
      shared: false,
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json()).toMatchObject({ user: user.id, weight: 1000, enabled: true, object_type: 'dcim.site' });
    const shared = (await v44.post('/api/extras/table-configs/', { ...data, name: uniq('tc') })).json();
    const scope = `id=${mine.json().id}&id=${shared.id}&ordering=id`;
    expect(ids((await v44.get(`/api/extras/table-configs/?${scope}&usable=true`)).json())).toEqual([shared.id]);
    expect(ids((await v44.get(`/api/extras/table-configs/?${scope}&object_type=dcim.site`)).json())).toEqual([
      mine.json().id,
      shared.id,
    ]);
    const brief = (await v44.get(`/api/extras/table-configs/?brief=1&id=${shared.id}`)).json().results[0];
    expect(Object.keys(brief)).toEqual(['id', 'url', 'display', 'name', 'description', 'object_type', 'table']);
    expect((await t.get('/api/extras/table-configs/')).statusCode).toBe(404);
  });

  it('refuses a column the object type does not have, writing nothing', async () => {
    const name = uniq('tc');
    const res = await v44.post('/api/extras/table-configs/', {
      object_type: 'dcim.site',
      table: 'SiteTable',
      name,
      columns: ['name', 'bogus'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ columns: ['Unknown column: bogus'] });
    expect((await v44.get(`/api/extras/table-configs/?name=${name}`)).json().count).toBe(0);
  });
});

describe('/api/extras/tagged-objects/', () => {
  it('lists the tag assignments of tagged objects, read-only', async () => {
    const tag = await makeTag(t);
    const site = await makeSite(t, { tags: [tag.id] });
    const list = (await v44.get(`/api/extras/tagged-objects/?tag_id=${tag.id}`)).json();
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({
      object_type: 'dcim.site',
      object_id: site.id,
      object: { id: site.id, name: site.name },
      tag: { id: tag.id, slug: tag.slug },
      display: `${site.name} tagged with ${tag.name}`,
    });
    expect(list.results[0]).not.toHaveProperty('content_type');
    const byType = await v44.get(`/api/extras/tagged-objects/?object_type=dcim.site&q=${tag.slug}`);
    expect(ids(byType.json())).toEqual([list.results[0].id]);
    expect((await v44.post('/api/extras/tagged-objects/', {})).statusCode).toBe(405);
    expect((await t.get('/api/extras/tagged-objects/')).statusCode).toBe(404);
  });
});

describe('/api/core/object-types/', () => {
  it("shows each model with NetBox 4.4's fields", async () => {
    const res = await v44.get('/api/core/object-types/?app_label=dcim&model=racktype');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0]).toMatchObject({
      display: 'DCIM | rack type',
      app_label: 'dcim',
      app_name: 'DCIM',
      model: 'racktype',
      model_name: 'rack type',
      model_name_plural: 'rack types',
      public: true,
      is_plugin_model: false,
      rest_api_endpoint: '/api/dcim/rack-types/',
    });
    expect(res.json().results[0].features).toEqual(expect.arrayContaining(['change_logging', 'tags']));
    expect((await t.get('/api/core/object-types/')).statusCode).toBe(404);
  });
});

describe('/api/core/object-changes/', () => {
  it('serves the change log under core too, with the message in 4.4', async () => {
    const site = await makeSite(t);
    const q = `changed_object_type=dcim.site&changed_object_id=${site.id}`;
    const old = await t.get(`/api/core/object-changes/?${q}`);
    expect(old.statusCode).toBe(200);
    expect(old.json().results[0]).not.toHaveProperty('message');
    const now = (await v44.get(`/api/core/object-changes/?${q}`)).json().results[0];
    expect(now).toMatchObject({ action: { value: 'create' }, changed_object_id: site.id, message: '' });
    expect((await v44.get(`/api/extras/object-changes/?${q}`)).json().results[0].id).toBe(now.id);
  });
});
