/** EXEMPT_VIEW_PERMISSIONS='*' exempts every model except the users app's (reference 7.2). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ EXEMPT_VIEW_PERMISSIONS: '*' });
});
afterAll(async () => t.close());

describe("EXEMPT_VIEW_PERMISSIONS='*'", () => {
  it('opens the views of every inventory model', async () => {
    await makeSite(t);
    for (const path of ['dcim/sites', 'dcim/regions', 'tenancy/tenants', 'extras/tags', 'extras/object-changes']) {
      const res = await t.get(`/api/${path}/`, null);
      expect(res.statusCode, path).toBe(200);
    }
    expect((await t.get('/api/dcim/sites/', null)).json().count).toBeGreaterThan(0);
  });

  it('keeps users, groups, permissions and tokens closed', async () => {
    for (const path of ['users/users', 'users/groups', 'users/permissions', 'users/tokens']) {
      const res = await t.get(`/api/${path}/`, null);
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  });

  it('the open change log does not reveal token keys', async () => {
    const created = await t.post('/api/users/tokens/', { description: 'secret' });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json();
    const res = await t.get(
      `/api/extras/object-changes/?changed_object_type=users.token&changed_object_id=${id}`,
      null,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(1);
    expect(res.json().results[0].changed_object).toMatchObject({ id, write_enabled: true });
    expect(res.body).not.toContain(key);
  });

  it('still refuses anonymous writes', async () => {
    const res = await t.post('/api/tenancy/tenants/', { name: 'anon', slug: 'anon' }, null);
    expect(res.statusCode).toBe(403);
  });
});
