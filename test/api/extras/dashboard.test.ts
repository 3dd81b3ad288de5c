/**
 * `/api/extras/dashboard/` (NetBox 3.6 DashboardView): the caller's own layout and config; the
 * default dashboard until they change it; PUT/PATCH replace the keys sent; DELETE goes back to the
 * default; anonymous callers and read-only tokens are refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeUser, type TestUser } from '../../factories/index.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await makeTestApp();
});
// each test its own users: what one test writes as alice or bob, another would read
beforeEach(async () => {
  alice = await makeUser(t);
  bob = await makeUser(t);
});
afterAll(async () => t.close());

const PATH = '/api/extras/dashboard/';
type Dashboard = {
  layout: Array<{ id: string; w: number; h: number }>;
  config: Record<string, { class: string; title: string }>;
};
const get = async (token: string) => {
  const res = await t.get(PATH, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Dashboard;
};

describe('/api/extras/dashboard/', () => {
  it('gives a user without one the default dashboard, and the same one on the next read', async () => {
    const first = await get(alice.token);
    expect(Object.keys(first).sort()).toEqual(['config', 'layout']);
    expect(first.layout).toHaveLength(9);
    // every grid item has its widget's config under the same id
    expect(Object.keys(first.config).sort()).toEqual(first.layout.map((l) => l.id).sort());
    expect(first.config[first.layout[0]!.id]).toMatchObject({ class: 'extras.BookmarksWidget', title: 'Bookmarks' });
    expect(first.layout[0]).toMatchObject({ w: 4, h: 5 });
    expect(await get(alice.token)).toEqual(first);
  });

  it('replaces the keys PATCH and PUT send, and keeps the others', async () => {
    const before = await get(alice.token);
    const layout = [{ id: 'w1', x: 0, y: 0, w: 6, h: 3 }];
    const patched = await t.patch(PATH, { layout }, alice.token);
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({ layout, config: before.config });
    const config = { w1: { class: 'extras.NoteWidget', title: 'Mine', color: null, config: { content: 'hello' } } };
    const put = await t.put(PATH, { config }, alice.token);
    expect(put.json()).toEqual({ layout, config });
    expect(await get(alice.token)).toEqual({ layout, config });
  });

  it('keeps each user their own dashboard', async () => {
    await t.patch(PATH, { layout: [] }, alice.token);
    expect((await get(alice.token)).layout).toEqual([]);
    expect((await get(bob.token)).layout).toHaveLength(9);
  });

  it('answers 400 for a layout that is no list of objects or a config that is no object, and changes nothing', async () => {
    const before = await get(bob.token);
    for (const body of [{ layout: {} }, { layout: [1] }, { config: [] }, { config: 'x' }]) {
      const res = await t.patch(PATH, body, bob.token);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json())).toEqual(Object.keys(body));
    }
    expect((await t.patch(PATH, [], bob.token)).statusCode).toBe(400);
    expect(await get(bob.token)).toEqual(before);
  });

  it('deletes the dashboard; the next read starts again from the default', async () => {
    await t.patch(PATH, { layout: [] }, bob.token);
    const res = await t.del(PATH, undefined, bob.token);
    expect(res.statusCode).toBe(204);
    const again = await get(bob.token);
    expect(again.layout).toHaveLength(9);
  });

  it('refuses anonymous callers (403) and writes with a read-only token', async () => {
    const anon = await t.get(PATH, null);
    expect(anon.statusCode).toBe(403);
    expect(anon.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect((await t.patch(PATH, { layout: [] }, null)).statusCode).toBe(403);
    const tok = await t.post('/api/users/tokens/', { user: alice.id, write_enabled: false });
    const readOnly = tok.json().key as string;
    expect((await t.get(PATH, readOnly)).statusCode).toBe(200);
    expect((await t.patch(PATH, { layout: [] }, readOnly)).statusCode).toBe(403);
  });

  it('answers OPTIONS and HEAD, and 405 naming its methods for POST', async () => {
    const options = await t.request('OPTIONS', PATH, { token: alice.token });
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({ name: 'Dashboard', parses: ['application/json'] });
    expect((await t.request('HEAD', PATH, { token: alice.token })).statusCode).toBe(200);
    const post = await t.post(PATH, {}, alice.token);
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.get('/api/schema/?format=json')).json();
    expect(Object.keys(doc.paths[PATH]).sort()).toEqual(expect.arrayContaining(['delete', 'get', 'patch', 'put']));
  });
});
