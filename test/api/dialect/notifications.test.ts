/**
 * NetBox 4.1's notification groups, notifications and subscriptions: the models and their
 * endpoints, served in the 4.4 dialect only (nothing generates notifications yet).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Api44, ids, makeGroup, makeSite, makeUser, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  t = await makeTestApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

describe('/api/extras/notification-groups/', () => {
  it('creates a group of users and groups, filters by member, and is 404 in 3.4', async () => {
    const user = await makeUser(t);
    const group = await makeGroup(t);
    const made = await v44.post('/api/extras/notification-groups/', {
      name: uniq('ng'),
      groups: [group.id],
      users: [user.id],
    });
    expect(made.statusCode, made.body).toBe(201);
    const ng = made.json();
    expect(ng.users.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(ng.groups.map((g: { id: number }) => g.id)).toEqual([group.id]);
    expect(ids((await v44.get(`/api/extras/notification-groups/?user_id=${user.id}`)).json())).toEqual([ng.id]);
    expect(ids((await v44.get(`/api/extras/notification-groups/?group=${group.name}`)).json())).toEqual([ng.id]);
    expect((await t.get(`/api/extras/notification-groups/${ng.id}/`)).statusCode).toBe(404);
    const patched = await v44.patch(`/api/extras/notification-groups/${ng.id}/`, { users: [] });
    expect(patched.json().users).toEqual([]);
    expect((await v44.del(`/api/extras/notification-groups/${ng.id}/`)).statusCode).toBe(204);
  });
});

describe('/api/extras/notifications/ and /api/extras/subscriptions/', () => {
  it('notifies a user of an object, once per object, and marks it read', async () => {
    const user = await makeUser(t);
    const site = await makeSite(t);
    const made = await v44.post('/api/extras/notifications/', {
      object_type: 'dcim.site',
      object_id: site.id,
      user: user.id,
      event_type: 'object_updated',
    });
    expect(made.statusCode, made.body).toBe(201);
    const n = made.json();
    expect(n).toMatchObject({
      display: site.name,
      object: { id: site.id },
      user: { id: user.id },
      read: null,
      event_type: { value: 'object_updated', label: 'Object updated' },
    });
    expect(n.created).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const read = await v44.patch(`/api/extras/notifications/${n.id}/`, { read: '2025-01-02T03:04:05Z' });
    expect(read.json().read).toBe('2025-01-02T03:04:05Z');
    const brief = (await v44.get(`/api/extras/notifications/?brief=1&user_id=${user.id}`)).json().results[0];
    expect(Object.keys(brief)).toEqual([
      'id',
      'url',
      'display',
      'object_type',
      'object_id',
      'user',
      'read',
      'event_type',
    ]);
    const again = await v44.post('/api/extras/notifications/', [
      { object_type: 'dcim.site', object_id: site.id, user: user.id, event_type: 'object_created' },
    ]);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual([
      { __all__: ['Notification with this Object type, Object id and User already exists.'] },
    ]);
    expect((await t.get('/api/extras/notifications/')).statusCode).toBe(404);
    expect((await v44.del(`/api/extras/notifications/${n.id}/`)).statusCode).toBe(204);
  });

  it('subscribes a user to an object, refusing an unknown event type and object type', async () => {
    const user = await makeUser(t);
    const site = await makeSite(t);
    const sub = await v44.post('/api/extras/subscriptions/', {
      object_type: 'dcim.site',
      object_id: site.id,
      user: user.id,
    });
    expect(sub.statusCode, sub.body).toBe(201);
    expect(sub.json()).toMatchObject({ display: site.name, object: { id: site.id }, user: { id: user.id } });
    expect(ids((await v44.get(`/api/extras/subscriptions/?user_id=${user.id}&object_type=dcim.site`)).json())).toEqual([
      sub.json().id,
    ]);
    const bad = await v44.post('/api/extras/subscriptions/', {
      object_type: 'dcim.nothing',
      object_id: 1,
      user: user.id,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['object_type']);
    const badEvent = await v44.post('/api/extras/notifications/', {
      object_type: 'dcim.site',
      object_id: site.id,
      user: user.id,
      event_type: 'bogus',
    });
    expect(badEvent.json()).toEqual({ event_type: ['"bogus" is not a valid choice.'] });
    expect((await v44.get(`/api/extras/notifications/?user_id=${user.id}`)).json().count).toBe(0);
    expect((await t.get('/api/extras/subscriptions/')).statusCode).toBe(404);
  });
});
