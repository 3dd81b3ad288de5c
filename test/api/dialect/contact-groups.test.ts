/**
 * NetBox 4.3 (#17170): a contact belongs to any number of groups. 4.4 shows and takes `groups`;
 * 3.4 shows `group`, the first of them, and writing `group` makes it the only one. The `group` and
 * `group_id` filters match any of the groups in both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Json, makeContact, makeContactGroup, make44, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const contactIn = (id: number, dialect: '3.4' | '4.4') =>
  (dialect === '4.4' ? api44(t).get(`/api/tenancy/contacts/${id}/`) : t.get(`/api/tenancy/contacts/${id}/`)).then(
    (r) => r.json() as Json,
  );
const groupIds = (c: Json) => (c.groups as Json[]).map((g) => g.id);

describe('contact groups', () => {
  it('4.4 writes and shows the list; 3.4 shows the first group', async () => {
    const [a, b] = [await makeContactGroup(t), await makeContactGroup(t)];
    const c = await make44(t, '/api/tenancy/contacts/', { name: uniq('c'), groups: [b.id, a.id] });
    expect(groupIds(c)).toEqual([a.id, b.id]);
    expect(c.groups[0]).toEqual({
      id: a.id,
      url: expect.any(String),
      display: a.name,
      name: a.name,
      slug: a.slug,
      description: '',
      _depth: 0,
    });
    expect(c).not.toHaveProperty('group');
    const old = await contactIn(c.id, '3.4');
    expect(old.group.id).toBe(a.id);
    expect(old).not.toHaveProperty('groups');
  });

  it('a 3.4 write of another group makes it the only one; null leaves none', async () => {
    const [a, b] = [await makeContactGroup(t), await makeContactGroup(t)];
    const c = await make44(t, '/api/tenancy/contacts/', { name: uniq('c'), groups: [a.id, b.id] });
    // the first group written back (a 3.4 PUT of what it read) keeps the others
    const { id: _id, url: _url, display: _display, ...read } = await contactIn(c.id, '3.4');
    expect((await t.put(`/api/tenancy/contacts/${c.id}/`, { ...read, group: read.group.id })).statusCode).toBe(200);
    expect(groupIds(await contactIn(c.id, '4.4'))).toEqual([a.id, b.id]);
    expect((await t.patch(`/api/tenancy/contacts/${c.id}/`, { group: b.id })).statusCode).toBe(200);
    expect(groupIds(await contactIn(c.id, '4.4'))).toEqual([b.id]);
    expect((await t.patch(`/api/tenancy/contacts/${c.id}/`, { group: null })).statusCode).toBe(200);
    expect(groupIds(await contactIn(c.id, '4.4'))).toEqual([]);
    expect((await contactIn(c.id, '3.4')).group).toBeNull();
    const made = await makeContact(t, { group: a.id });
    expect(groupIds(await contactIn(made.id, '4.4'))).toEqual([a.id]);
  });

  it('filters group and group_id match any of the groups and the groups below them, in both dialects', async () => {
    const top = await makeContactGroup(t);
    const sub = await makeContactGroup(t, { parent: top.id });
    const other = await makeContactGroup(t);
    const c = await make44(t, '/api/tenancy/contacts/', { name: uniq('c'), groups: [other.id, sub.id] });
    const none = await make44(t, '/api/tenancy/contacts/', { name: uniq('c'), groups: [] });
    const ids = async (q: string, v44 = false) =>
      (
        ((v44 ? await api44(t).get(`/api/tenancy/contacts/?${q}`) : await t.get(`/api/tenancy/contacts/?${q}`)).json()
          .results ?? []) as Json[]
      ).map((r) => r.id);
    expect(await ids(`group_id=${sub.id}`)).toEqual([c.id]);
    expect(await ids(`group_id=${top.id}`, true)).toEqual([c.id]);
    expect(await ids(`group=${other.slug}`)).toEqual([c.id]);
    expect(await ids(`group_id=${other.id}&group_id__n=${sub.id}`)).toEqual([]);
    expect(await ids(`id=${c.id}&id=${none.id}&group_id=null`)).toEqual([none.id]);
    expect((await t.get('/api/tenancy/contacts/?group_id=987654321')).statusCode).toBe(400);
  });

  it('counts a group contact_count through the list', async () => {
    const [a, b] = [await makeContactGroup(t), await makeContactGroup(t)];
    await make44(t, '/api/tenancy/contacts/', { name: uniq('c'), groups: [a.id, b.id] });
    await makeContact(t, { group: b.id });
    const count = async (id: number) => (await t.get(`/api/tenancy/contact-groups/${id}/`)).json().contact_count;
    expect([await count(a.id), await count(b.id)]).toEqual([1, 2]);
  });

  it('a contact whose first group is deleted shows the next one in 3.4', async () => {
    const [a, b] = [await makeContactGroup(t), await makeContactGroup(t)];
    const c = await make44(t, '/api/tenancy/contacts/', { name: uniq('c'), groups: [a.id, b.id] });
    expect((await t.del(`/api/tenancy/contact-groups/${a.id}/`)).statusCode).toBe(204);
    expect((await contactIn(c.id, '3.4')).group.id).toBe(b.id);
    expect(groupIds(await contactIn(c.id, '4.4'))).toEqual([b.id]);
  });

  it('keeps a name unique within the first group, however the group is written', async () => {
    const g = await makeContactGroup(t);
    const name = uniq('c');
    await makeContact(t, { name, group: g.id });
    const dup = await api44(t).post('/api/tenancy/contacts/', { name, groups: [g.id] });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ __all__: ['Contact with this Group and Name already exists.'] });
    const bad = await api44(t).post('/api/tenancy/contacts/', { name: uniq('c'), groups: [987654321] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['groups']);
  });
});
