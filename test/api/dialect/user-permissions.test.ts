/**
 * NetBox 4's users and groups carry their object permissions (`permissions`, written from their
 * side too: the Ansible collection's netbox_user and netbox_user_group send them), a user its
 * `last_login`, and no `is_superuser` (NetBox 4.4's UserSerializer). 3.4 shows neither list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

async function permission(objectTypes: string[]) {
  const res = await t.post('/api/users/permissions/', {
    name: uniq('perm'),
    actions: ['view'],
    object_types: objectTypes,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('users and groups with their permissions', () => {
  it("writes a user's permissions from the user, which then grant what they say", async () => {
    const sites = await permission(['dcim.site']);
    const racks = await permission(['dcim.rack']);
    const created = await api44(t).post('/api/users/users/', {
      username: uniq('u'),
      password: 'Pw-for-test-12',
      permissions: [sites.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const u = created.json();
    expect(u.permissions.map((p: { id: number }) => p.id)).toEqual([sites.id]);
    expect(u.permissions[0]).toMatchObject({ name: sites.name });
    expect(u).toHaveProperty('last_login', null);
    expect(u).not.toHaveProperty('is_superuser');
    // the same rows as the permission's users
    expect((await t.get(`/api/users/permissions/${sites.id}/`)).json().users).toEqual([
      expect.objectContaining({ id: u.id }),
    ]);
    // and they grant: the user's token sees sites, not racks
    const token = await t.post('/api/users/tokens/', { user: u.id });
    expect(token.statusCode, token.body).toBe(201);
    expect((await t.get('/api/dcim/sites/', token.json().key)).statusCode).toBe(200);
    expect((await t.get('/api/dcim/racks/', token.json().key)).statusCode).toBe(403);
    const moved = await api44(t).patch(`/api/users/users/${u.id}/`, { permissions: [racks.id] });
    expect(moved.json().permissions.map((p: { id: number }) => p.id)).toEqual([racks.id]);
    expect((await t.get('/api/dcim/racks/', token.json().key)).statusCode).toBe(200);
    expect((await t.get('/api/dcim/sites/', token.json().key)).statusCode).toBe(403);
    // 3.4 shows the user as it always did
    const old = (await t.get(`/api/users/users/${u.id}/`)).json();
    expect(old).not.toHaveProperty('permissions');
    expect(old).toHaveProperty('is_superuser', false);
  });

  it("writes a group's permissions from the group", async () => {
    const sites = await permission(['dcim.site']);
    const res = await api44(t).post('/api/users/groups/', { name: uniq('g'), permissions: [sites.id] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().permissions.map((p: { id: number }) => p.id)).toEqual([sites.id]);
    expect((await t.get(`/api/users/permissions/${sites.id}/`)).json().groups).toEqual([
      expect.objectContaining({ id: res.json().id }),
    ]);
    expect((await t.get(`/api/users/groups/${res.json().id}/`)).json()).not.toHaveProperty('permissions');
  });

  it('refuses a permission that does not exist, writing nothing', async () => {
    const name = uniq('u');
    const res = await api44(t).post('/api/users/users/', {
      username: name,
      password: 'Pw-for-test-12',
      permissions: [987654321],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('permissions');
    expect((await t.get(`/api/users/users/?username=${name}`)).json().count).toBe(0);
  });
});
