/** DEFAULT_PERMISSIONS='{}' withdraws the right to manage one's own tokens (spec: Authentication 3, 12). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { grant, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ DEFAULT_PERMISSIONS: '{}' });
});
afterAll(async () => t.close());

const DENIED = { detail: 'You do not have permission to perform this action.' };
const provision = (username: string, password: string) =>
  t.request('POST', '/api/users/tokens/provision/', { body: { username, password }, token: null });

describe('DEFAULT_PERMISSIONS={}', () => {
  it('a user without users.add_token cannot provision, and nothing is created', async () => {
    const u = await makeUser(t);
    const res = await provision(u.username, u.password);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(DENIED);
    expect((await t.get(`/api/users/tokens/?user_id=${u.id}`)).json().count).toBe(1);
  });

  it('a user cannot list or create their own tokens', async () => {
    const u = await makeUser(t);
    expect((await t.get('/api/users/tokens/', u.token)).json()).toEqual(DENIED);
    expect((await t.post('/api/users/tokens/', {}, u.token)).json()).toEqual(DENIED);
  });

  it('a superuser still provisions', async () => {
    const admins = (await t.get('/api/users/users/?is_superuser=true')).json();
    expect(admins.count).toBe(1);
    const admin = admins.results[0].username as string;
    const res = await provision(admin, 'admin-password');
    expect(res.statusCode).toBe(201);
  });

  it('an explicit add permission on tokens restores provisioning', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['users.token'], actions: ['add'], users: [u.id], constraints: { user: '$user' } });
    expect((await provision(u.username, u.password)).statusCode).toBe(201);
  });
});
