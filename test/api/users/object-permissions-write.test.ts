/** Object permissions on writes (reference 7.4): add/change constraints re-checked after the write, delete scoping, OPTIONS. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, grant, makeSite, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const DENIED = { detail: 'You do not have permission to perform this action.' };
const siteBySlug = async (slug: string) => (await t.get(`/api/dcim/sites/?slug=${slug}`)).json();

describe('add permission', () => {
  it('without it a create is 403 and writes nothing', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id] });
    const name = uniq('site');
    const res = await t.post('/api/dcim/sites/', { name, slug: name }, u.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(DENIED);
    expect((await siteBySlug(name)).count).toBe(0);
  });

  it('with constraints: a matching object is created, a violating one is refused and rolled back', async () => {
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['add'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    const ok = uniq('site');
    const created = await t.post('/api/dcim/sites/', { name: ok, slug: ok, status: 'planned' }, u.token);
    expect(created.statusCode).toBe(201);

    const bad = uniq('site');
    const res = await t.post('/api/dcim/sites/', { name: bad, slug: bad, status: 'active' }, u.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(DENIED);
    expect((await siteBySlug(bad)).count).toBe(0);
    // nothing of the refused write reached the change log either
    const changes = (await t.get(`/api/extras/object-changes/?changed_object_type=dcim.site&limit=1000`)).json();
    expect(JSON.stringify(changes)).not.toContain(bad);
  });

  it('a bulk create with one violating object writes none of them', async () => {
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['add'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    const [a, b] = [uniq('site'), uniq('site')];
    const res = await t.post(
      '/api/dcim/sites/',
      [
        { name: a, slug: a, status: 'planned' },
        { name: b, slug: b, status: 'active' },
      ],
      u.token,
    );
    expect(res.statusCode).toBe(403);
    expect((await siteBySlug(a)).count).toBe(0);
    expect((await siteBySlug(b)).count).toBe(0);
  });
});

describe('change permission', () => {
  it('updating into a non-matching state is 403 and rolled back', async () => {
    const u = await makeUser(t);
    const site = await makeSite(t, { status: 'planned', description: 'before' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['change'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    const ok = await t.patch(`/api/dcim/sites/${site.id}/`, { description: 'allowed' }, u.token);
    expect(ok.statusCode).toBe(200);
    const res = await t.patch(`/api/dcim/sites/${site.id}/`, { status: 'active', description: 'sneaky' }, u.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(DENIED);
    const stored = (await t.get(`/api/dcim/sites/${site.id}/`)).json();
    expect(stored.status.value).toBe('planned');
    expect(stored.description).toBe('allowed');
  });

  it('objects outside the scope are not found (404); in bulk they fail the whole request', async () => {
    const u = await makeUser(t);
    const inScope = await makeSite(t, { status: 'planned' });
    const outScope = await makeSite(t, { status: 'active' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['change'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    const res = await t.patch(`/api/dcim/sites/${outScope.id}/`, { description: 'x' }, u.token);
    expect(res.statusCode).toBe(404);
    // spec: Operations rules 1 - NetBox would skip the object out of reach and update the other
    const bulk = await t.patch(
      '/api/dcim/sites/',
      [
        { id: inScope.id, description: 'bulk' },
        { id: outScope.id, description: 'bulk' },
      ],
      u.token,
    );
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([{}, { id: [`Invalid pk "${outScope.id}" - object does not exist.`] }]);
    expect((await t.get(`/api/dcim/sites/${inScope.id}/`)).json().description).toBe('');
    expect((await t.get(`/api/dcim/sites/${outScope.id}/`)).json().description).toBe('');
  });

  it('change does not imply view', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['change'], users: [u.id] });
    expect((await t.get('/api/dcim/sites/', u.token)).statusCode).toBe(403);
  });
});

describe('delete permission', () => {
  it('deletes within the scope; out-of-scope objects are 404 and survive', async () => {
    const u = await makeUser(t);
    const inScope = await makeSite(t, { status: 'retired' });
    const outScope = await makeSite(t, { status: 'active' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['delete'],
      users: [u.id],
      constraints: { status: 'retired' },
    });
    const res = await t.del(`/api/dcim/sites/${outScope.id}/`, undefined, u.token);
    expect(res.statusCode).toBe(404);
    expect((await t.get(`/api/dcim/sites/${outScope.id}/`)).statusCode).toBe(200);
    expect((await t.del(`/api/dcim/sites/${inScope.id}/`, undefined, u.token)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/sites/${inScope.id}/`)).statusCode).toBe(404);
  });

  it('a bulk delete reaching one object out of scope deletes nothing', async () => {
    const u = await makeUser(t);
    const inScope = await makeSite(t, { status: 'retired' });
    const outScope = await makeSite(t, { status: 'active' });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['delete'],
      users: [u.id],
      constraints: { status: 'retired' },
    });
    const res = await t.del('/api/dcim/sites/', [{ id: inScope.id }, { id: outScope.id }], u.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{}, { id: [`Invalid pk "${outScope.id}" - object does not exist.`] }]);
    expect((await t.get(`/api/dcim/sites/${inScope.id}/`)).statusCode).toBe(200);
    expect((await t.get(`/api/dcim/sites/${outScope.id}/`)).statusCode).toBe(200);
  });

  it('without delete permission a delete is 403', async () => {
    const u = await makeUser(t);
    const site = await makeSite(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id] });
    const res = await t.del(`/api/dcim/sites/${site.id}/`, undefined, u.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(DENIED);
  });
});

describe('OPTIONS', () => {
  it('shows actions.POST only with add permission', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id] });
    const viewOnly = await t.request('OPTIONS', '/api/dcim/sites/', { token: u.token });
    expect(viewOnly.statusCode).toBe(200);
    expect(viewOnly.json().actions?.POST).toBeUndefined();

    await grant(t, { object_types: ['dcim.site'], actions: ['add'], users: [u.id] });
    const withAdd = (await t.request('OPTIONS', '/api/dcim/sites/', { token: u.token })).json();
    expect(withAdd.actions.POST.status.choices).toEqual(
      expect.arrayContaining([{ value: 'active', display_name: 'Active' }]),
    );
    expect(withAdd.actions.PUT).toBeUndefined();

    const admin = (await t.request('OPTIONS', '/api/dcim/sites/')).json();
    expect(Object.keys(admin.actions).sort()).toEqual(['POST', 'PUT']);
  });
});
