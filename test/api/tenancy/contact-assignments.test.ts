/**
 * Contact assignments through the HTTP API: the generic relation (content_type + object_id ->
 * `object`), validation, display, uniqueness, filters, and cascade when the object is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  make,
  type Json,
  idsAt,
  makeContactGroup,
  makeContactRole,
  makeSite,
  makeTenant,
} from '../../factories/index.js';

const PATH = '/api/tenancy/contact-assignments/';
let t: TestApp;
let site: Json, tenant: Json, contact: Json, role: Json, group: Json;
beforeAll(async () => {
  t = await makeTestApp();
  site = await makeSite(t);
  tenant = await makeTenant(t);
  group = await makeContactGroup(t);
  contact = await make(t, '/api/tenancy/contacts/', { name: uniq('contact'), group: group.id });
  role = await makeContactRole(t);
});
afterAll(async () => t.close());

const ids = (url: string) => idsAt(t, url);

describe('POST /api/tenancy/contact-assignments/', () => {
  it('renders the object nested, contact and role nested, priority as a choice', async () => {
    const a = await make(t, PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      contact: contact.id,
      role: role.id,
      priority: 'primary',
    });
    expect(a).toMatchObject({
      content_type: 'dcim.site',
      object_id: site.id,
      object: { id: site.id, url: site.url, display: site.name, name: site.name, slug: site.slug },
      contact: { id: contact.id, name: contact.name },
      role: { id: role.id, name: role.name, slug: role.slug },
      priority: { value: 'primary', label: 'Primary' },
      display: `${contact.name} (Primary) -> ${site.name}`,
    });
    expect(a).not.toHaveProperty('tags');
    expect(a).not.toHaveProperty('custom_fields');
    const brief = (await t.get(`${PATH}${a.id}/?brief=1`)).json();
    expect(Object.keys(brief).sort()).toEqual(['contact', 'display', 'id', 'priority', 'role', 'url']);
    expect(brief.display).toBe(a.display);
  });

  it('leaves priority empty (null) when omitted, and the display without it', async () => {
    const a = await make(t, PATH, {
      content_type: 'tenancy.tenant',
      object_id: tenant.id,
      contact: contact.id,
      role: role.id,
    });
    expect(a.priority).toBeNull();
    expect(a.display).toBe(`${contact.name} -> ${tenant.name}`);
  });

  it('rejects an unknown type, a missing object and missing fields', async () => {
    const base = { contact: contact.id, role: role.id };
    const badType = await t.post(PATH, { ...base, content_type: 'dcim.nothing', object_id: 1 });
    expect(badType.json()).toEqual({ content_type: ['Invalid content type: dcim.nothing'] });
    const missing = await t.post(PATH, { ...base, content_type: 'dcim.site', object_id: 987654 });
    expect(missing.json()).toEqual({ object_id: ['Related object not found using the provided value: 987654.'] });
    const empty = await t.post(PATH, {});
    expect(Object.keys(empty.json()).sort()).toEqual(['contact', 'content_type', 'object_id', 'role']);
    const badPriority = await t.post(PATH, {
      ...base,
      content_type: 'dcim.site',
      object_id: site.id,
      priority: 'urgent',
    });
    expect(Object.keys(badPriority.json())).toEqual(['priority']);
  });

  it('assigns a contact to an object once per role', async () => {
    const s = await makeSite(t);
    const data = { content_type: 'dcim.site', object_id: s.id, contact: contact.id, role: role.id };
    await make(t, PATH, data);
    const dup = await t.post(PATH, { ...data, priority: 'secondary' });
    expect(dup.json()).toEqual({
      __all__: ['Contact assignment with this Content type, Object id, Contact and Role already exists.'],
    });
    const role2 = await makeContactRole(t);
    expect((await t.post(PATH, { ...data, role: role2.id })).statusCode).toBe(201);
  });
});

describe('GET /api/tenancy/contact-assignments/ filters', () => {
  let s: Json, onSite: Json, onTenant: Json, other: Json, role2: Json;
  beforeAll(async () => {
    s = await makeSite(t);
    const t2 = await makeTenant(t);
    other = await make(t, '/api/tenancy/contacts/', { name: uniq('other') });
    role2 = await makeContactRole(t);
    onSite = await make(t, PATH, {
      content_type: 'dcim.site',
      object_id: s.id,
      contact: contact.id,
      role: role.id,
      priority: 'tertiary',
    });
    onTenant = await make(t, PATH, {
      content_type: 'tenancy.tenant',
      object_id: t2.id,
      contact: other.id,
      role: role2.id,
      priority: 'inactive',
    });
  });
  const both = () => `id=${onSite.id}&id=${onTenant.id}`;

  it('filters by content_type, content_type_id and object_id', async () => {
    expect(await ids(`${PATH}?${both()}&content_type=dcim.site`)).toEqual([onSite.id]);
    expect(await ids(`${PATH}?${both()}&content_type__n=dcim.site`)).toEqual([onTenant.id]);
    expect(await ids(`${PATH}?content_type=dcim.site&object_id=${s.id}`)).toEqual([onSite.id]);
    const cts = (await t.get('/api/extras/content-types/?app_label=tenancy&model=tenant')).json().results;
    expect(await ids(`${PATH}?${both()}&content_type_id=${cts[0].id}`)).toEqual([onTenant.id]);
  });

  it('filters by contact_id, role, role_id, group, group_id and priority', async () => {
    expect(await ids(`${PATH}?${both()}&contact_id=${other.id}`)).toEqual([onTenant.id]);
    expect(await ids(`${PATH}?${both()}&role=${role2.slug}`)).toEqual([onTenant.id]);
    expect(await ids(`${PATH}?${both()}&role_id=${role.id}`)).toEqual([onSite.id]);
    expect(await ids(`${PATH}?${both()}&group=${group.slug}`)).toEqual([onSite.id]);
    expect(await ids(`${PATH}?${both()}&group_id=${group.id}`)).toEqual([onSite.id]);
    expect(await ids(`${PATH}?${both()}&group_id__n=${group.id}`)).toEqual([onTenant.id]);
    expect(await ids(`${PATH}?${both()}&priority=inactive`)).toEqual([onTenant.id]);
    const bad = await t.get(`${PATH}?group=nope`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['group']);
  });

  it('orders by priority, then contact', async () => {
    expect(await ids(`${PATH}?${both()}`)).toEqual([onTenant.id, onSite.id]);
  });

  it('finds assignments by contact or role name with q', async () => {
    expect(await ids(`${PATH}?${both()}&q=${other.name}`)).toEqual([onTenant.id]);
    expect(await ids(`${PATH}?${both()}&q=${role.name}`)).toEqual([onSite.id]);
  });
});

describe('deleting the assigned object', () => {
  it('deletes its assignments with it and logs them', async () => {
    const s = await makeSite(t);
    const a = await make(t, PATH, { content_type: 'dcim.site', object_id: s.id, contact: contact.id, role: role.id });
    const del = await t.del(`/api/dcim/sites/${s.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await t.get(`${PATH}${a.id}/`)).statusCode).toBe(404);
    const changes = (await t.get(`/api/extras/object-changes/?request_id=${del.headers['x-request-id']}`)).json()
      .results as Json[];
    expect(changes.map((c) => c.changed_object_type).sort()).toEqual(['dcim.site', 'tenancy.contactassignment']);
    expect((await t.get(`/api/tenancy/contacts/${contact.id}/`)).statusCode).toBe(200);
  });
});
