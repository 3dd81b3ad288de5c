/**
 * Object permissions as NetBox writes them (3.4 and 4.4 alike: ObjectPermissionSerializer): an
 * empty list of object types, constraints not tried against the types' fields (the Ansible
 * collection's netbox_permission test writes `{"name": "Foo"}` for tunnel terminations and
 * wireless LANs). Such a constraint grants nothing: where it is used, the answer is a 400 naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, grant, makeUser, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('permission writes', () => {
  it.each(['3.4', '4.4'])('%s takes an empty list of object types', async (dialect) => {
    const body = { name: uniq('perm'), actions: ['view'], object_types: [] };
    const res =
      dialect === '4.4'
        ? await api44(t).post('/api/users/permissions/', body)
        : await t.post('/api/users/permissions/', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().object_types).toEqual([]);
  });

  it('takes constraints the object types cannot use, as the Ansible collection writes them', async () => {
    const created = await api44(t).post('/api/users/permissions/', {
      name: uniq('perm'),
      actions: ['view', 'add', 'change', 'delete', 'extreme_administration'],
      object_types: [],
    });
    const res = await api44(t).patch(`/api/users/permissions/${created.json().id}/`, {
      enabled: false,
      object_types: ['vpn.tunneltermination', 'wireless.wirelesslan'],
      constraints: { name: 'Foo' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      object_types: ['vpn.tunneltermination', 'wireless.wirelesslan'],
      constraints: { name: 'Foo' },
    });
  });

  it('a constraint that cannot filter the model is a 400 where it is used, and grants nothing', async () => {
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['wireless.wirelesslan'],
      actions: ['view'],
      users: [u.id],
      constraints: { name: 'Foo' },
    });
    const res = await t.get('/api/wireless/wireless-lans/', u.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'A permission constraint cannot filter wireless LANs: {"name":"Foo"} (unknown field name).',
    });
    // one that fits keeps working beside it
    await grant(t, {
      object_types: ['wireless.wirelesslan'],
      actions: ['view'],
      users: [u.id],
      constraints: { ssid: 'x' },
    });
    expect((await t.get('/api/wireless/wireless-lans/', u.token)).statusCode).toBe(400);
  });
});
