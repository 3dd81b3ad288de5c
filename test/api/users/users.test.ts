import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

async function storedPassword(id: number): Promise<string> {
  const res = await sql<{ password: string }>`select password from users_user where id = ${id}`.execute(t.db.kysely);
  return res.rows[0]!.password;
}

const provision = (username: string, password: string) =>
  t.request('POST', '/api/users/tokens/provision/', { body: { username, password }, token: null });

describe('POST /api/users/users/', () => {
  it('creates a user without ever returning the password, stored hashed with scrypt', async () => {
    const username = uniq('user');
    const res = await t.post('/api/users/users/', {
      username,
      password: 'S3cret-pass',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).not.toHaveProperty('password');
    expect(body).toMatchObject({ username, display: `${username} (Ada Lovelace)`, is_active: true, groups: [] });
    const stored = await storedPassword(body.id);
    expect(stored.startsWith('scrypt$')).toBe(true);
    expect(stored).not.toContain('S3cret-pass');

    const got = await t.get(`/api/users/users/${body.id}/`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).not.toHaveProperty('password');
  });

  it('requires a password', async () => {
    const res = await t.post('/api/users/users/', { username: uniq('user') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('password');
  });

  it('does not let the API create superusers (is_superuser is read-only)', async () => {
    const res = await t.post('/api/users/users/', {
      username: uniq('user'),
      password: 'x-password',
      is_superuser: true,
    });
    expect(res.statusCode).toBe(201);
    const row = await sql<{
      is_superuser: boolean;
    }>`select is_superuser from users_user where id = ${res.json().id}`.execute(t.db.kysely);
    expect(row.rows[0]!.is_superuser).toBe(false);
    expect(res.json().is_superuser).toBe(false);
    const patched = await t.patch(`/api/users/users/${res.json().id}/`, { is_superuser: true });
    expect(patched.json().is_superuser).toBe(false);
  });
});

describe('PATCH /api/users/users/<id>/ with a password', () => {
  it('re-hashes the password, and provisioning accepts only the new one', async () => {
    const u = await makeUser(t);
    const before = await storedPassword(u.id);
    expect((await provision(u.username, u.password)).statusCode).toBe(201);

    const res = await t.patch(`/api/users/users/${u.id}/`, { password: 'brand-new-password' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('password');
    const after = await storedPassword(u.id);
    expect(after.startsWith('scrypt$')).toBe(true);
    expect(after).not.toBe(before);
    expect(after).not.toContain('brand-new-password');

    expect((await provision(u.username, 'brand-new-password')).statusCode).toBe(201);
    const old = await provision(u.username, u.password);
    expect(old.statusCode).toBe(403);
    expect(old.json()).toEqual({ detail: 'Invalid username/password' });
  });

  it('keeps the password when other fields change', async () => {
    const u = await makeUser(t);
    const before = await storedPassword(u.id);
    expect((await t.patch(`/api/users/users/${u.id}/`, { first_name: 'Grace' })).statusCode).toBe(200);
    expect(await storedPassword(u.id)).toBe(before);
    expect((await provision(u.username, u.password)).statusCode).toBe(201);
  });

  it('an inactive user cannot provision a token', async () => {
    const u = await makeUser(t);
    expect((await t.patch(`/api/users/users/${u.id}/`, { is_active: false })).statusCode).toBe(200);
    const res = await provision(u.username, u.password);
    expect(res.statusCode).toBe(403);
    // and the existing token of an inactive user no longer authenticates
    const use = await t.get('/api/users/tokens/', u.token);
    expect(use.statusCode).toBe(403);
    expect(use.json()).toEqual({ detail: 'User inactive' });
  });
});

describe('groups', () => {
  it('counts users and exposes membership through users.groups', async () => {
    const g = await t.post('/api/users/groups/', { name: uniq('group') });
    expect(g.statusCode).toBe(201);
    const gid = g.json().id as number;
    expect(g.json().user_count).toBe(0);

    const a = await t.post('/api/users/users/', { username: uniq('user'), password: 'pw-one-123', groups: [gid] });
    expect(a.statusCode).toBe(201);
    expect(a.json().groups).toEqual([expect.objectContaining({ id: gid, name: g.json().name })]);
    const b = await makeUser(t);
    expect((await t.patch(`/api/users/users/${b.id}/`, { groups: [gid] })).statusCode).toBe(200);

    const got = await t.get(`/api/users/groups/${gid}/`);
    expect(got.json().user_count).toBe(2);
    const filtered = await t.get(`/api/users/users/?group_id=${gid}`);
    expect(filtered.statusCode).toBe(200);
    expect(
      filtered
        .json()
        .results.map((u: { id: number }) => u.id)
        .sort(),
    ).toEqual([a.json().id, b.id].sort());

    const byName = await t.get(`/api/users/users/?group=${g.json().name}`);
    expect(byName.json().count).toBe(2);
    expect((await t.get(`/api/users/users/?group_id=${gid}&username=${b.username}`)).json().count).toBe(1);
    expect((await t.get('/api/users/users/?group_id=999999')).statusCode).toBe(400);

    expect((await t.patch(`/api/users/users/${b.id}/`, { groups: [] })).json().groups).toEqual([]);
    expect((await t.get(`/api/users/groups/${gid}/`)).json().user_count).toBe(1);
  });

  it('rejects a duplicate group name', async () => {
    const name = uniq('group');
    expect((await t.post('/api/users/groups/', { name })).statusCode).toBe(201);
    const dup = await t.post('/api/users/groups/', { name });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toHaveProperty('name');
  });
});

describe('/api/users/config/', () => {
  it('needs a user', async () => {
    const res = await t.get('/api/users/config/', null);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('starts empty and deep-merges PATCHes, per user', async () => {
    const u = await makeUser(t);
    expect((await t.get('/api/users/config/', u.token)).json()).toEqual({});
    const first = await t.patch(
      '/api/users/config/',
      { ui: { colormode: 'dark', tables: { sites: ['name'] } }, a: 1 },
      u.token,
    );
    expect(first.statusCode).toBe(200);
    const second = await t.patch('/api/users/config/', { ui: { tables: { racks: ['name'] } }, b: [1, 2] }, u.token);
    expect(second.json()).toEqual({
      ui: { colormode: 'dark', tables: { sites: ['name'], racks: ['name'] } },
      a: 1,
      b: [1, 2],
    });
    expect((await t.get('/api/users/config/', u.token)).json()).toEqual(second.json());
    // another user's preferences are separate
    expect((await t.get('/api/users/config/')).json()).toEqual({});
  });

  it('answers 405 to methods other than GET and PATCH', async () => {
    const res = await t.post('/api/users/config/', { a: 1 });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ detail: 'Method "POST" not allowed.' });
  });

  it('rejects a body that is not an object', async () => {
    const res = await t.patch('/api/users/config/', [1, 2]);
    expect(res.statusCode).toBe(400);
  });
});
