/**
 * Contact groups, roles and contacts through the HTTP API: the group tree (cumulative
 * contact_count, no cycles, sibling uniqueness), contact validation and uniqueness per group,
 * filters, and protection of contacts and roles that are assigned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, make, idsAt, makeContactGroup, makeContactRole, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const ids = (url: string) => idsAt(t, url);

describe('contact groups', () => {
  it('nests groups, counts contacts of subgroups too, and shows _depth', async () => {
    const top = await makeContactGroup(t);
    const sub = await makeContactGroup(t, { parent: top.id });
    await make(t, '/api/tenancy/contacts/', { name: uniq('c'), group: top.id });
    await make(t, '/api/tenancy/contacts/', { name: uniq('c'), group: sub.id });
    const brief = (await t.get(`/api/tenancy/contact-groups/${top.id}/?brief=1`)).json();
    expect(brief).toEqual({
      id: top.id,
      url: top.url,
      display: top.name,
      name: top.name,
      slug: top.slug,
      contact_count: 2,
      _depth: 0,
    });
    const child = (await t.get(`/api/tenancy/contact-groups/${sub.id}/`)).json();
    expect(child).toMatchObject({ contact_count: 1, _depth: 1, parent: { id: top.id, _depth: 0 } });
    expect(await ids(`/api/tenancy/contact-groups/?parent_id=${top.id}`)).toEqual([sub.id]);
  });

  it('refuses a cycle and a duplicate name under the same parent', async () => {
    const top = await makeContactGroup(t);
    const sub = await makeContactGroup(t, { parent: top.id });
    const cycle = await t.patch(`/api/tenancy/contact-groups/${top.id}/`, { parent: sub.id });
    expect(cycle.json()).toEqual({ parent: ['Cannot assign self or child as parent.'] });
    const dup = await t.post('/api/tenancy/contact-groups/', { name: sub.name, slug: uniq('x'), parent: top.id });
    expect(dup.statusCode).toBe(400);
    expect(Object.keys(dup.json())).toEqual(['__all__']);
    const topDup = await t.post('/api/tenancy/contact-groups/', { name: top.name, slug: uniq('x') });
    expect(topDup.json()).toEqual({ __all__: ['A top-level contact group with this name already exists.'] });
  });

  it('keeps a contact when its group is deleted (group set to null)', async () => {
    const g = await makeContactGroup(t);
    const c = await make(t, '/api/tenancy/contacts/', { name: uniq('c'), group: g.id });
    expect((await t.del(`/api/tenancy/contact-groups/${g.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/tenancy/contacts/${c.id}/`)).json().group).toBeNull();
  });
});

describe('contacts', () => {
  it('stores every field and renders the brief form {id,url,display,name}', async () => {
    const g = await makeContactGroup(t);
    const data = {
      name: uniq('c'),
      group: g.id,
      title: 'NOC lead',
      phone: '+1 555 0100',
      email: 'noc@example.com',
      address: '1 Main St',
      link: 'https://example.com/noc',
      description: 'd',
      comments: 'c',
    };
    const c = await make(t, '/api/tenancy/contacts/', data);
    expect(c).toMatchObject({
      ...data,
      group: { id: g.id, name: g.name, slug: g.slug, _depth: 0 },
      display: data.name,
    });
    expect((await t.get(`/api/tenancy/contacts/${c.id}/?brief=1`)).json()).toEqual({
      id: c.id,
      url: c.url,
      display: c.name,
      name: c.name,
    });
  });

  it('validates email and link', async () => {
    const res = await t.post('/api/tenancy/contacts/', { name: uniq('c'), email: 'nope', link: 'not a url' });
    expect(res.json()).toEqual({ email: ['Enter a valid email address.'], link: ['Enter a valid URL.'] });
  });

  it('keeps names unique within a group only', async () => {
    const g = await makeContactGroup(t);
    const name = uniq('c');
    await make(t, '/api/tenancy/contacts/', { name, group: g.id });
    const dup = await t.post('/api/tenancy/contacts/', { name, group: g.id });
    expect(dup.json()).toEqual({ __all__: ['Contact with this Group and Name already exists.'] });
    expect((await t.post('/api/tenancy/contacts/', { name })).statusCode).toBe(201);
  });

  it('filters by group (with subgroups), group_id, email and phone lookups', async () => {
    const top = await makeContactGroup(t);
    const sub = await makeContactGroup(t, { parent: top.id });
    const mail = `${uniq('m')}@example.net`;
    const c = await make(t, '/api/tenancy/contacts/', {
      name: uniq('c'),
      group: sub.id,
      email: mail,
      phone: '+44 20 7946 0000',
    });
    expect(await ids(`/api/tenancy/contacts/?group=${top.slug}`)).toEqual([c.id]);
    expect(await ids(`/api/tenancy/contacts/?group_id=${sub.id}`)).toEqual([c.id]);
    expect(await ids(`/api/tenancy/contacts/?email__ie=${mail.toUpperCase()}`)).toEqual([c.id]);
    expect(await ids(`/api/tenancy/contacts/?group_id=${sub.id}&phone__isw=%2B44`)).toEqual([c.id]);
    expect(await ids(`/api/tenancy/contacts/?q=${encodeURIComponent(mail)}`)).toEqual([c.id]);
  });
});

describe('contact roles', () => {
  it('has unique names and slugs and a {name, slug} brief form', async () => {
    const r = await makeContactRole(t);
    const dup = await t.post('/api/tenancy/contact-roles/', { name: r.name, slug: r.slug });
    expect(dup.json()).toEqual({
      name: ['contact role with this Name already exists.'],
      slug: ['contact role with this Slug already exists.'],
    });
    expect(Object.keys((await t.get(`/api/tenancy/contact-roles/${r.id}/?brief=1`)).json()).sort()).toEqual([
      'display',
      'id',
      'name',
      'slug',
      'url',
    ]);
  });
});

describe('protection of assigned contacts and roles', () => {
  it('answers 409 when deleting a contact or role in use, 204 once unassigned', async () => {
    const site = await makeSite(t);
    const c = await make(t, '/api/tenancy/contacts/', { name: uniq('c') });
    const r = await makeContactRole(t);
    const a = await make(t, '/api/tenancy/contact-assignments/', {
      content_type: 'dcim.site',
      object_id: site.id,
      contact: c.id,
      role: r.id,
    });
    expect((await t.del(`/api/tenancy/contacts/${c.id}/`)).statusCode).toBe(409);
    expect((await t.del(`/api/tenancy/contact-roles/${r.id}/`)).statusCode).toBe(409);
    expect((await t.del(`/api/tenancy/contact-assignments/${a.id}/`)).statusCode).toBe(204);
    expect((await t.del(`/api/tenancy/contacts/${c.id}/`)).statusCode).toBe(204);
    expect((await t.del(`/api/tenancy/contact-roles/${r.id}/`)).statusCode).toBe(204);
  });
});
