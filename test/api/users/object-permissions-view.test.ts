/** Object permissions scoping reads (reference 7.4): constraints, $user, groups, enabled, validation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, grant, ids as idsOf, makeSite, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const DENIED = { detail: 'You do not have permission to perform this action.' };

describe('view permission', () => {
  it('a user without permission gets 403 on a list and a detail', async () => {
    const u = await makeUser(t);
    const site = await makeSite(t);
    const list = await t.get('/api/dcim/sites/', u.token);
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual(DENIED);
    expect((await t.get(`/api/dcim/sites/${site.id}/`, u.token)).json()).toEqual(DENIED);
  });

  it('constraints {"status":"active"} scope the list and hide other details (404)', async () => {
    const u = await makeUser(t);
    const active = await makeSite(t, { status: 'active' });
    const planned = await makeSite(t, { status: 'planned' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: { status: 'active' },
    });
    const list = await t.get('/api/dcim/sites/?limit=1000', u.token);
    expect(list.statusCode).toBe(200);
    const ids = idsOf(list.json());
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(planned.id);
    expect(list.json().results.every((s: { status: { value: string } }) => s.status.value === 'active')).toBe(true);
    expect(list.json().count).toBe(ids.length);
    expect((await t.get(`/api/dcim/sites/${active.id}/`, u.token)).statusCode).toBe(200);
    const hidden = await t.get(`/api/dcim/sites/${planned.id}/`, u.token);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ detail: 'Not found.' });
    // filters combine with the scope
    expect((await t.get(`/api/dcim/sites/?slug=${planned.slug}`, u.token)).json().count).toBe(0);
  });

  it('a list of constraint objects ORs them', async () => {
    const u = await makeUser(t);
    const planned = await makeSite(t, { status: 'planned' });
    const retired = await makeSite(t, { status: 'retired' });
    const staging = await makeSite(t, { status: 'staging' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: [{ status: 'planned' }, { slug: retired.slug }],
    });
    const ids = idsOf((await t.get('/api/dcim/sites/?limit=1000', u.token)).json());
    expect(ids).toContain(planned.id);
    expect(ids).toContain(retired.id);
    expect(ids).not.toContain(staging.id);
  });

  it('several permissions for one action OR, and one without constraints grants everything', async () => {
    const u = await makeUser(t);
    const a = await makeSite(t, { status: 'planned' });
    const b = await makeSite(t, { status: 'decommissioning' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    expect(idsOf((await t.get('/api/dcim/sites/?limit=1000', u.token)).json())).not.toContain(b.id);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id], constraints: null });
    const ids = idsOf((await t.get('/api/dcim/sites/?limit=1000', u.token)).json());
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('constraints cross foreign keys (region__slug)', async () => {
    const u = await makeUser(t);
    const rname = uniq('region');
    const region = await t.post('/api/dcim/regions/', { name: rname, slug: rname });
    expect(region.statusCode).toBe(201);
    const inside = await makeSite(t, { region: region.json().id });
    const outside = await makeSite(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: { region__slug: rname },
    });
    const ids = idsOf((await t.get('/api/dcim/sites/?limit=1000', u.token)).json());
    expect(ids).toEqual([inside.id]);
    expect((await t.get(`/api/dcim/sites/${outside.id}/`, u.token)).statusCode).toBe(404);
  });

  it('lookups in constraints (__in, __icontains, __isnull)', async () => {
    const u = await makeUser(t);
    const a = await makeSite(t, { status: 'planned', description: 'Core POP' });
    const b = await makeSite(t, { status: 'staging', description: 'edge' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: { status__in: ['planned', 'staging'], description__icontains: 'core', region__isnull: true },
    });
    const ids = idsOf((await t.get('/api/dcim/sites/?limit=1000', u.token)).json());
    expect(ids).toContain(a.id);
    expect(ids).not.toContain(b.id);
  });

  it('"$user" stands for the requesting user', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await grant(t, {
      object_types: ['users.user'],
      actions: ['view'],
      users: [a.id, b.id],
      constraints: { id: '$user' },
    });
    const seenByA = (await t.get('/api/users/users/', a.token)).json();
    expect(idsOf(seenByA)).toEqual([a.id]);
    expect(idsOf((await t.get('/api/users/users/', b.token)).json())).toEqual([b.id]);
    expect((await t.get(`/api/users/users/${b.id}/`, a.token)).statusCode).toBe(404);
  });

  it('permissions reach users through their groups', async () => {
    const g = await t.post('/api/users/groups/', { name: uniq('group') });
    const u = await makeUser(t, { groups: [g.json().id] });
    expect((await t.get('/api/tenancy/tenants/', u.token)).statusCode).toBe(403);
    await grant(t, { object_types: ['tenancy.tenant'], actions: ['view'], groups: [g.json().id] });
    expect((await t.get('/api/tenancy/tenants/', u.token)).statusCode).toBe(200);
    // and stop when the user leaves the group
    expect((await t.patch(`/api/users/users/${u.id}/`, { groups: [] })).statusCode).toBe(200);
    expect((await t.get('/api/tenancy/tenants/', u.token)).statusCode).toBe(403);
  });

  it('a disabled permission grants nothing', async () => {
    const u = await makeUser(t);
    const id = await grant(t, { object_types: ['tenancy.tenant'], actions: ['view'], users: [u.id], enabled: false });
    expect((await t.get('/api/tenancy/tenants/', u.token)).statusCode).toBe(403);
    expect((await t.patch(`/api/users/permissions/${id}/`, { enabled: true })).statusCode).toBe(200);
    expect((await t.get('/api/tenancy/tenants/', u.token)).statusCode).toBe(200);
  });

  it('a permission for another model or action grants nothing here', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.region'], actions: ['view'], users: [u.id] });
    await grant(t, { object_types: ['dcim.site'], actions: ['add', 'change', 'delete'], users: [u.id] });
    expect((await t.get('/api/dcim/sites/', u.token)).statusCode).toBe(403);
    expect((await t.get('/api/dcim/regions/', u.token)).statusCode).toBe(200);
  });
});

describe('POST /api/users/permissions/ validation', () => {
  const base = { object_types: ['dcim.site'], actions: ['view'] };

  it('refuses constraints that are not an object or a list of objects', async () => {
    for (const constraints of ['text', [1], [{ status: 'active' }, 'x']]) {
      const res = await t.post('/api/users/permissions/', { name: uniq('perm'), ...base, constraints });
      expect(res.statusCode, JSON.stringify(constraints)).toBe(400);
      expect(res.json()).toHaveProperty('constraints');
    }
  });

  // Constraints the object types cannot use (test/api/dialect/permission-writes.test.ts) are taken
  // as NetBox takes them, and refused where they are used.
  it('answers 400 where a constraint naming an unknown field is used, granting nothing', async () => {
    const u = await makeUser(t);
    await grant(t, { ...base, users: [u.id], constraints: [{ status: 'active' }, { region__nope: 'x' }] });
    const res = await t.get('/api/dcim/sites/', u.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('{"region__nope":"x"}');
  });

  it('answers 400 where a constraint value the database cannot compare is used', async () => {
    const u = await makeUser(t);
    await grant(t, { ...base, users: [u.id], constraints: { id__gt: 'abc' } });
    expect((await t.get('/api/dcim/sites/', u.token)).statusCode).toBe(400);
  });

  it('rejects unknown object types and empty actions', async () => {
    const badType = await t.post('/api/users/permissions/', {
      name: uniq('perm'),
      object_types: ['dcim.nothing'],
      actions: ['view'],
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json()).toHaveProperty('object_types');
    const noActions = await t.post('/api/users/permissions/', {
      name: uniq('perm'),
      object_types: ['dcim.site'],
      actions: [],
    });
    expect(noActions.statusCode).toBe(400);
    expect(noActions.json()).toHaveProperty('actions');
  });

  it('lists permissions filtered by user', async () => {
    const u = await makeUser(t);
    const id = await grant(t, { ...base, users: [u.id] });
    const res = await t.get(`/api/users/permissions/?user_id=${u.id}`);
    expect(idsOf(res.json())).toEqual([id]);
    expect(idsOf((await t.get(`/api/users/permissions/?user=${u.username}`)).json())).toEqual([id]);
  });

  it('the brief form names groups and users', async () => {
    const u = await makeUser(t);
    const g = await t.post('/api/users/groups/', { name: uniq('group') });
    const id = await grant(t, { ...base, users: [u.id], groups: [g.json().id] });
    const brief = (await t.get(`/api/users/permissions/${id}/?brief=1`)).json();
    expect(brief).toMatchObject({
      id,
      enabled: true,
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.username],
      groups: [g.json().name],
    });
    const full = (await t.get(`/api/users/permissions/${id}/`)).json();
    expect(full.users).toEqual([expect.objectContaining({ id: u.id, username: u.username })]);
  });
});
