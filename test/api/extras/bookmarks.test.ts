/**
 * Bookmarks (NetBox 3.6): one per object and user, the owner defaulting to the caller, deleted
 * with their object and their user, not change-logged; plain users see and write only their own
 * (DEFAULT_PERMISSIONS), superusers see all.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeUser, type TestUser, makeDevice, makeSite } from '../../factories/index.js';

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

const PATH = '/api/extras/bookmarks/';
const ids = (body: { results: Array<{ id: number }> }) => body.results.map((r) => r.id);

describe('/api/extras/bookmarks/', () => {
  it("renders NetBox 3.6's fields: the object nested, the caller as owner, shown as its object", async () => {
    const site = await makeSite(t);
    const res = await t.post(PATH, { object_type: 'dcim.site', object_id: site.id }, alice.token);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['created', 'display', 'id', 'object', 'object_id', 'object_type', 'url', 'user'].sort(),
    );
    expect(body).toMatchObject({
      object_type: 'dcim.site',
      object_id: site.id,
      display: site.name,
      user: { id: alice.id, username: alice.username },
    });
    expect(body.object).toMatchObject({
      id: site.id,
      name: site.name,
      url: expect.stringContaining(`/api/dcim/sites/${site.id}/`),
    });
    const brief = (await t.get(`${PATH}${body.id}/?brief=1`)).json();
    expect(brief).toEqual({
      id: body.id,
      url: body.url,
      display: site.name,
      object_id: site.id,
      object_type: 'dcim.site',
    });
  });

  it('takes one bookmark per object and user, in one request or across requests', async () => {
    const site = await makeSite(t);
    const data = { object_type: 'dcim.site', object_id: site.id };
    const DUP = { __all__: ['Bookmark with this Object type, Object id and User already exists.'] };
    const twice = await t.post(PATH, [data, data], alice.token);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual([{}, DUP]);
    expect((await t.post(PATH, data, alice.token)).statusCode).toBe(201);
    const again = await t.post(PATH, data, alice.token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(DUP);
    // named explicitly too
    expect((await t.post(PATH, { ...data, user: alice.id })).json()).toEqual(DUP);
    // another user may bookmark it
    expect((await t.post(PATH, data, bob.token)).statusCode).toBe(201);
  });

  it('refuses an unknown object type or an object that does not exist', async () => {
    expect((await t.post(PATH, { object_type: 'dcim.nothing', object_id: 1 })).json()).toEqual({
      object_type: ['Invalid content type: dcim.nothing'],
    });
    const res = await t.post(PATH, { object_type: 'dcim.site', object_id: 987654 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ object_id: ['Related object not found using the provided value: 987654.'] });
  });

  it('deletes the bookmarks of a deleted object, and of a deleted user', async () => {
    const device = await makeDevice(t);
    const bm = (await t.post(PATH, { object_type: 'dcim.device', object_id: device.id }, alice.token)).json();
    expect((await t.del(`/api/dcim/devices/${device.id}/`)).statusCode).toBe(204);
    expect((await t.get(`${PATH}${bm.id}/`)).statusCode).toBe(404);
    const carol = await makeUser(t);
    const site = await makeSite(t);
    const cbm = (await t.post(PATH, { object_type: 'dcim.site', object_id: site.id }, carol.token)).json();
    expect((await t.del(`/api/users/users/${carol.id}/`)).statusCode).toBe(204);
    expect((await t.get(`${PATH}${cbm.id}/`)).statusCode).toBe(404);
  });

  it('lets a plain user see and write only their own bookmarks; a superuser sees all', async () => {
    const site = await makeSite(t);
    const a = (await t.post(PATH, { object_type: 'dcim.site', object_id: site.id }, alice.token)).json();
    const b = (await t.post(PATH, { object_type: 'dcim.site', object_id: site.id }, bob.token)).json();
    const seenByAlice = ids((await t.get(`${PATH}?object_id=${site.id}`, alice.token)).json());
    expect(seenByAlice).toEqual([a.id]);
    expect(ids((await t.get(`${PATH}?object_id=${site.id}`)).json())).toEqual([a.id, b.id]);
    expect((await t.get(`${PATH}${b.id}/`, alice.token)).statusCode).toBe(404);
    expect((await t.del(`${PATH}${b.id}/`, undefined, alice.token)).statusCode).toBe(404);
    // a bookmark for someone else is outside the caller's constraints
    const other = await makeSite(t);
    const forBob = await t.post(PATH, { object_type: 'dcim.site', object_id: other.id, user: bob.id }, alice.token);
    expect(forBob.statusCode).toBe(403);
    expect((await t.get(`${PATH}?object_id=${other.id}`)).json().count).toBe(0);
    expect((await t.del(`${PATH}${a.id}/`, undefined, alice.token)).statusCode).toBe(204);
  });

  it('filters by object type, object id, user and user id', async () => {
    const site = await makeSite(t);
    const bm = (await t.post(PATH, { object_type: 'dcim.site', object_id: site.id }, bob.token)).json();
    const q = async (s: string) => ids((await t.get(`${PATH}?object_id=${site.id}&${s}`)).json());
    expect(await q('object_type=dcim.site')).toEqual([bm.id]);
    expect(await q('object_type=dcim.device')).toEqual([]);
    expect(await q(`user=${bob.username}`)).toEqual([bm.id]);
    expect(await q(`user_id=${alice.id}`)).toEqual([]);
    expect(await q(`user_id__n=${alice.id}`)).toEqual([bm.id]);
    expect((await t.get(`${PATH}?object_type=dcim.nothing`)).statusCode).toBe(400);
    const siteType = (await t.get('/api/extras/content-types/?app_label=dcim&model=site')).json().results[0]
      .id as number;
    expect(await q(`object_type_id=${siteType}`)).toEqual([bm.id]);
    expect(await q(`object_type_id__n=${siteType}`)).toEqual([]);
    expect(await q(`object_type_id=${siteType + 1}`)).toEqual([]);
    expect((await t.get(`${PATH}?object_type_id=abc`)).statusCode).toBe(400);
  });

  it('writes no change record (NetBox does not log bookmarks)', async () => {
    const site = await makeSite(t);
    const res = await t.post(PATH, { object_type: 'dcim.site', object_id: site.id });
    expect(res.statusCode).toBe(201);
    const changes = (
      await t.get(`/api/extras/object-changes/?request_id=${String(res.headers['x-request-id'])}`)
    ).json();
    expect(changes.count).toBe(0);
  });
});
