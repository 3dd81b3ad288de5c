/** EXEMPT_VIEW_PERMISSIONS naming one model (spec: Authentication 10; reference 7.2). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeSite, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
});
afterAll(async () => t.close());

const NO_CREDENTIALS = { detail: 'Authentication credentials were not provided.' };

describe("EXEMPT_VIEW_PERMISSIONS='dcim.site'", () => {
  it('anonymous clients list and read sites', async () => {
    const site = await makeSite(t);
    const list = await t.get('/api/dcim/sites/', null);
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((s: { id: number }) => s.id)).toContain(site.id);
    expect((await t.get(`/api/dcim/sites/${site.id}/`, null)).statusCode).toBe(200);
  });

  it('other models still need credentials', async () => {
    const res = await t.get('/api/tenancy/tenants/', null);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(NO_CREDENTIALS);
  });

  it('anonymous clients never write, not even to the exempt model', async () => {
    const site = await makeSite(t);
    const name = uniq('site');
    const post = await t.post('/api/dcim/sites/', { name, slug: name }, null);
    expect(post.statusCode).toBe(403);
    expect(post.json()).toEqual(NO_CREDENTIALS);
    expect((await t.patch(`/api/dcim/sites/${site.id}/`, { description: 'x' }, null)).statusCode).toBe(403);
    expect((await t.del(`/api/dcim/sites/${site.id}/`, undefined, null)).statusCode).toBe(403);
    expect((await t.get(`/api/dcim/sites/?slug=${name}`, null)).json().count).toBe(0);
    expect((await t.get(`/api/dcim/sites/${site.id}/`, null)).json().description).toBe('');
  });

  it('the exemption covers view only for authenticated users too', async () => {
    const u = await makeUser(t);
    expect((await t.get('/api/dcim/sites/', u.token)).statusCode).toBe(200);
    const name = uniq('site');
    const post = await t.post('/api/dcim/sites/', { name, slug: name }, u.token);
    expect(post.statusCode).toBe(403);
    expect(post.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('anonymous OPTIONS shows no actions', async () => {
    const res = await t.request('OPTIONS', '/api/dcim/sites/', { token: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('actions');
  });
});
