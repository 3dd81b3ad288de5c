/**
 * Who may see and make which tokens (spec: Authentication 3 and 9): with the default
 * DEFAULT_PERMISSIONS a user manages their own tokens; tokens for others need users.grant_token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { grant, ids as idsOf, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const GRANT_DENIED = { detail: 'This user does not have permission to create tokens for other users.' };

describe('own tokens (DEFAULT_PERMISSIONS)', () => {
  it('a user sees only their own tokens; a superuser sees all', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const mine = await t.get('/api/users/tokens/', a.token);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().results.map((r: { user: { id: number } }) => r.user.id)).toEqual([a.id]);
    const all = await t.get(`/api/users/tokens/?user_id=${a.id}&user_id=${b.id}`);
    expect(all.json().count).toBe(2);
    // another user's token is simply not found
    const bTokenId = (await t.get(`/api/users/tokens/?user_id=${b.id}`)).json().results[0].id;
    expect((await t.get(`/api/users/tokens/${bTokenId}/`, a.token)).statusCode).toBe(404);
    expect((await t.patch(`/api/users/tokens/${bTokenId}/`, { description: 'mine now' }, a.token)).statusCode).toBe(
      404,
    );
    expect((await t.del(`/api/users/tokens/${bTokenId}/`, undefined, a.token)).statusCode).toBe(404);
  });

  it('a user creates, changes and deletes their own tokens', async () => {
    const a = await makeUser(t);
    const created = await t.post('/api/users/tokens/', { description: 'self-made' }, a.token);
    expect(created.statusCode).toBe(201);
    expect(created.json().user.id).toBe(a.id);
    expect(created.json().key).toMatch(/^[0-9a-f]{40}$/);
    const explicit = await t.post('/api/users/tokens/', { user: a.id }, a.token);
    expect(explicit.statusCode).toBe(201);
    const id = created.json().id;
    expect((await t.patch(`/api/users/tokens/${id}/`, { description: 'renamed' }, a.token)).json().description).toBe(
      'renamed',
    );
    expect((await t.del(`/api/users/tokens/${id}/`, undefined, a.token)).statusCode).toBe(204);
    expect((await t.get('/api/users/tokens/', a.token)).json().count).toBe(2);
  });

  it('a user may not create a token for someone else without users.grant_token', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const res = await t.post('/api/users/tokens/', { user: b.id }, a.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(GRANT_DENIED);
    expect((await t.get(`/api/users/tokens/?user_id=${b.id}`)).json().count).toBe(1);
  });

  it('a user may not move their own token to someone else', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const id = (await t.get('/api/users/tokens/', a.token)).json().results[0].id;
    const res = await t.patch(`/api/users/tokens/${id}/`, { user: b.id }, a.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(GRANT_DENIED);
    expect((await t.get(`/api/users/tokens/${id}/`)).json().user.id).toBe(a.id);
  });

  it('users.grant_token lets a user create tokens for others and see them', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await grant(t, { object_types: ['users.token'], actions: ['grant'], users: [a.id] });
    const res = await t.post('/api/users/tokens/', { user: b.id, description: 'for b' }, a.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user.id).toBe(b.id);
    expect(res.json().key).toMatch(/^[0-9a-f]{40}$/);
    expect(idsOf((await t.get(`/api/users/tokens/?user_id=${b.id}`, a.token)).json())).toContain(res.json().id);
    // the new token works for b
    expect(idsOf((await t.get('/api/users/tokens/', res.json().key)).json())).toContain(res.json().id);
  });

  it('the grant permission constraints limit whose tokens may be granted', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const c = await makeUser(t);
    await grant(t, {
      object_types: ['users.token'],
      actions: ['grant'],
      users: [a.id],
      constraints: { user__username: b.username },
    });
    expect((await t.post('/api/users/tokens/', { user: b.id }, a.token)).statusCode).toBe(201);
    const refused = await t.post('/api/users/tokens/', { user: c.id }, a.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await t.get(`/api/users/tokens/?user_id=${c.id}`)).json().count).toBe(1);
  });
});

describe('users with no token permissions', () => {
  it('a user without any view permission on users gets 403', async () => {
    const a = await makeUser(t);
    const res = await t.get('/api/users/users/', a.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await t.get('/api/users/permissions/', a.token)).statusCode).toBe(403);
  });
});
