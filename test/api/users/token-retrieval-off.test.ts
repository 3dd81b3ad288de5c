/** ALLOW_TOKEN_RETRIEVAL=false (spec: Authentication 8): the key is shown once, on creation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ ALLOW_TOKEN_RETRIEVAL: 'false' });
});
afterAll(async () => t.close());

describe('ALLOW_TOKEN_RETRIEVAL=false', () => {
  it('shows the key in the create response only', async () => {
    const res = await t.post('/api/users/tokens/', { description: 'once' });
    expect(res.statusCode).toBe(201);
    const { id, key } = res.json();
    expect(key).toMatch(/^[0-9a-f]{40}$/);

    const detail = (await t.get(`/api/users/tokens/${id}/`)).json();
    expect(detail).not.toHaveProperty('key');
    expect(detail.display).not.toContain(key);
    expect(detail.display).toMatch(new RegExp(`${key.slice(-6)}$`));

    const list = (await t.get(`/api/users/tokens/?id=${id}`)).json();
    expect(list.results[0]).not.toHaveProperty('key');
    const brief = (await t.get(`/api/users/tokens/?id=${id}&brief=1`)).json();
    expect(brief.results[0]).not.toHaveProperty('key');
    expect(JSON.stringify(brief)).not.toContain(key);

    const patched = await t.patch(`/api/users/tokens/${id}/`, { description: 'twice' });
    expect(patched.json()).not.toHaveProperty('key');
    // the key still authenticates
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
  });

  it('the key filter matches exactly only: partial lookups would reveal keys', async () => {
    const { id, key } = (await t.post('/api/users/tokens/', {})).json();
    expect((await t.get(`/api/users/tokens/?key=${key}`)).json().results.map((r: { id: number }) => r.id)).toEqual([
      id,
    ]);
    const all = (await t.get('/api/users/tokens/')).json().count;
    expect(all).toBeGreaterThan(1);
    for (const lookup of ['isw', 'ic', 'iew']) {
      expect((await t.get(`/api/users/tokens/?key__${lookup}=${key.slice(0, 4)}`)).json().count).toBe(all);
    }
  });

  it('provisioning returns the key', async () => {
    const u = await makeUser(t);
    const res = await t.request('POST', '/api/users/tokens/provision/', {
      body: { username: u.username, password: u.password },
      token: null,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().key).toMatch(/^[0-9a-f]{40}$/);
  });

  it('the key does not leak through the change log', async () => {
    const { key } = (await t.post('/api/users/tokens/', {})).json();
    const changes = await t.get('/api/extras/object-changes/?changed_object_type=users.token&limit=1000');
    expect(changes.statusCode).toBe(200);
    expect(changes.body).not.toContain(key);
  });
});
