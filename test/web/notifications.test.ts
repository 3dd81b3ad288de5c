/**
 * Bookmarks, subscriptions and notifications in the web interface (NetBox 4.1), through
 * app.inject() on the suite's engine: the object page's Bookmark and Subscribe buttons, the
 * notifications the outbox worker writes for subscribers (not the request), the header's bell,
 * opening, dismissing and bulk actions on one's own notifications only, an event rule notifying a
 * notification group, and a burst of changes costing the writer no more statements for being
 * watched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { grant, type Json, make, makeDevice, makeSite, makeUser, type TestUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { formValues, postForm, tokenOf } from '../helpers/web-forms.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

const V44 = { accept: 'application/json; version=4.4' };

let t: TestApp;
let worker: EventWorker;
let b: TestUser;
let bWeb: WebSession;
let c: TestUser;
let cWeb: WebSession;
let admin: WebSession;

beforeAll(async () => {
  t = await makeTestApp();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
  admin = await signIn(t, t.username, t.password);
  b = await makeUser(t);
  c = await makeUser(t);
  await grant(t, {
    object_types: ['dcim.device', 'dcim.site'],
    actions: ['view'],
    users: [b.id, c.id],
  });
  bWeb = await signIn(t, b.username, b.password);
  cWeb = await signIn(t, c.username, c.password);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** the bell's accessible label on a page */
const bellOf = (page: string) =>
  /class="nav-link bell" href="\/user\/notifications\/" aria-label="([^"]+)"/.exec(page)?.[1];

/** presses an object page's mark button (its form, posted as the browser does); the answer */
async function press(web: WebSession, objectUrl: string, action: string) {
  const page = (await web.request('GET', objectUrl)).body;
  expect(page).toContain(`action="${action}"`);
  return postForm(t, web, action, formValues(page, action), { token: tokenOf(page) });
}

/** the user's own notifications through the REST API (4.4 dialect) */
async function notificationsOf(user: TestUser, query = '') {
  const res = await t.request('GET', `/api/extras/notifications/?limit=0${query}`, { token: user.token, headers: V44 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as Array<Json>;
}

describe('subscribing and being notified', () => {
  let device: Json;
  let url: string;

  it('shows Bookmark and Subscribe to a signed-in user, and nothing to a visitor', async () => {
    device = await makeDevice(t, { name: uniq('watched') });
    url = `/dcim/devices/${device.id}/`;
    const page = await bWeb.request('GET', url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('>Subscribe</button>');
    expect(page.body).toContain('>Bookmark</button>');
    expect(bellOf(page.body)).toBe('Notifications, none unread');
    for (const link of ['/user/bookmarks/', '/user/subscriptions/', '/user/notifications/'])
      expect(page.body).toContain(`href="${link}"`);
  });

  it('subscribes through the button and comes back to the object', async () => {
    const res = await press(bWeb, url, '/user/subscriptions/add/');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(url);
    const page = await bWeb.request('GET', url);
    expect(page.body).toContain('>Unsubscribe</button>');
    // pressing it twice is no error and still one subscription
    expect((await press(bWeb, url, '/user/subscriptions/remove/')).statusCode).toBe(303);
    expect((await bWeb.request('GET', url)).body).toContain('>Subscribe</button>');
    expect((await press(bWeb, url, '/user/subscriptions/add/')).statusCode).toBe(303);
    const mine = await bWeb.request('GET', '/user/subscriptions/');
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain(`href="${url}"`);
    expect(mine.body).toContain('<span class="count">1</span>');
  });

  it('notifies the subscriber, from the worker, when the admin edits the object through the API', async () => {
    const patched = await t.patch(`/api/dcim/devices/${device.id}/`, { serial: 'SN-1' });
    expect(patched.statusCode, patched.body).toBe(200);
    // the request wrote no notification: the outbox did
    const outbox = await t.db.kysely
      .selectFrom('core_delivery')
      .select(['notify_user_ids', 'status'])
      .where('object_key', '=', `dcim.device:${device.id}`)
      .execute();
    expect(outbox.map((d) => d.notify_user_ids.map(Number))).toEqual([[b.id]]);
    await worker.idle();
    const mine = await notificationsOf(b);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ object_id: device.id, read: null });
    expect(mine[0]!.event_type.value ?? mine[0]!.event_type).toBe('object_updated');
    // C subscribed to nothing, and hears of nothing
    expect(await notificationsOf(c)).toHaveLength(0);
    expect(bellOf((await cWeb.request('GET', '/')).body)).toBe('Notifications, none unread');

    const home = await bWeb.request('GET', '/');
    expect(bellOf(home.body)).toBe('Notifications, 1 unread');
    const list = await bWeb.request('GET', '/user/notifications/');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/user/notifications/${mine[0]!.id}/"`);
    expect(list.body).toContain(device.name);
    expect(list.body).toContain('Unread');
    expect(list.body).toContain('Object updated');
  });

  it('opening one marks it read and goes to the object; dismissing deletes it', async () => {
    const [n] = await notificationsOf(b);
    const open = await bWeb.request('GET', `/user/notifications/${n!.id}/`);
    expect(open.statusCode).toBe(303);
    expect(open.headers.location).toBe(url);
    const [after] = await notificationsOf(b);
    expect(after!.read).not.toBeNull();
    expect(bellOf((await bWeb.request('GET', '/')).body)).toBe('Notifications, none unread');
    const page = (await bWeb.request('GET', '/user/notifications/')).body;
    const action = `/user/notifications/${n!.id}/dismiss/`;
    expect(page).toContain(`formaction="${action}"`);
    const gone = await postForm(t, bWeb, action, [], { token: tokenOf(page) });
    expect(gone.statusCode).toBe(303);
    expect(await notificationsOf(b)).toHaveLength(0);
  });

  it('keeps one notification per object, unread again on the next change', async () => {
    await t.patch(`/api/dcim/devices/${device.id}/`, { serial: 'SN-2' });
    await worker.idle();
    const [n] = await notificationsOf(b);
    await bWeb.request('GET', `/user/notifications/${n!.id}/`);
    await t.patch(`/api/dcim/devices/${device.id}/`, { serial: 'SN-3' });
    await worker.idle();
    const again = await notificationsOf(b);
    expect(again).toHaveLength(1);
    expect(again[0]!.read).toBeNull();
  });

  it('does not let B see, open or dismiss another user’s notification', async () => {
    // the admin subscribes too, through the page
    expect((await press(admin, url, '/user/subscriptions/add/')).statusCode).toBe(303);
    await t.patch(`/api/dcim/devices/${device.id}/`, { serial: 'SN-4' });
    await worker.idle();
    const adminOwn = (
      await t.request(
        'GET',
        `/api/extras/notifications/?user_id=${(await t.get(`/api/users/users/?username=${t.username}`)).json().results[0].id}`,
        { headers: V44 },
      )
    ).json().results as Array<Json>;
    expect(adminOwn).toHaveLength(1);
    const theirs = adminOwn[0]!.id;
    const list = (await bWeb.request('GET', '/user/notifications/')).body;
    expect(list).not.toContain(`/user/notifications/${theirs}/`);
    expect((await bWeb.request('GET', `/user/notifications/${theirs}/`)).statusCode).toBe(404);
    const dismiss = await postForm(t, bWeb, `/user/notifications/${theirs}/dismiss/`, [], { token: tokenOf(list) });
    expect(dismiss.statusCode).toBe(404);
    const bulk = await postForm(t, bWeb, '/user/notifications/delete/', [['pk', String(theirs)]], {
      token: tokenOf(list),
    });
    expect(bulk.statusCode).toBe(303);
    // the admin's own page lists theirs, and it survived B's attempts
    expect((await admin.request('GET', '/user/notifications/')).body).toContain(`/user/notifications/${theirs}/`);
  });

  it('"Mark all read" and "Dismiss all" act on the user’s own', async () => {
    const page = (await bWeb.request('GET', '/user/notifications/')).body;
    expect((await postForm(t, bWeb, '/user/notifications/read-all/', [], { token: tokenOf(page) })).statusCode).toBe(
      303,
    );
    expect((await notificationsOf(b)).every((n) => n.read)).toBe(true);
    expect((await postForm(t, bWeb, '/user/notifications/dismiss-all/', [], { token: tokenOf(page) })).statusCode).toBe(
      303,
    );
    expect(await notificationsOf(b)).toHaveLength(0);
    expect(bellOf((await admin.request('GET', '/')).body)).toBe('Notifications, 1 unread');
  });

  it('notifies of a deletion, which takes the subscriptions with the object', async () => {
    const del = await t.del(`/api/dcim/devices/${device.id}/`);
    expect(del.statusCode, del.body).toBe(204);
    const subs = await t.request('GET', `/api/extras/subscriptions/?object_id=${device.id}&object_type=dcim.device`, {
      headers: V44,
    });
    expect(subs.json().count).toBe(0);
    await worker.idle();
    const [n] = await notificationsOf(b);
    expect(n!.event_type.value ?? n!.event_type).toBe('object_deleted');
    expect(n!.display).toBe(device.name);
    // opening it shows what is known, the object being gone
    const open = await bWeb.request('GET', `/user/notifications/${n!.id}/`);
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('This object no longer exists.');
    expect(open.body).toContain(device.name);
    expect((await bWeb.request('GET', '/user/subscriptions/')).body).not.toContain(`href="${url}"`);
  });
});

describe('bookmarks', () => {
  it('are added and removed by the button and listed, deleted singly or in bulk, each user’s own', async () => {
    const [d1, d2] = [await makeDevice(t, { name: uniq('bm') }), await makeDevice(t, { name: uniq('bm') })];
    for (const d of [d1, d2])
      expect((await press(bWeb, `/dcim/devices/${d.id}/`, '/user/bookmarks/add/')).statusCode).toBe(303);
    expect((await bWeb.request('GET', `/dcim/devices/${d1.id}/`)).body).toContain('>Remove bookmark</button>');
    const page = (await bWeb.request('GET', '/user/bookmarks/')).body;
    expect(page).toContain(`href="/dcim/devices/${d1.id}/"`);
    expect(page).toContain(`href="/dcim/devices/${d2.id}/"`);
    // C sees none of B's
    expect((await cWeb.request('GET', '/user/bookmarks/')).body).not.toContain(`href="/dcim/devices/${d1.id}/"`);
    const ids = [...page.matchAll(/name="pk" value="(\d+)"/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);
    // C cannot delete B's: not found
    const cPage = (await cWeb.request('GET', '/user/bookmarks/')).body;
    expect(
      (await postForm(t, cWeb, `/user/bookmarks/${ids[0]}/delete/`, [], { token: tokenOf(cPage) })).statusCode,
    ).toBe(404);
    const bulk = await postForm(
      t,
      bWeb,
      '/user/bookmarks/delete/',
      ids.map((id) => ['pk', id]),
      { token: tokenOf(page) },
    );
    expect(bulk.statusCode).toBe(303);
    expect((await bWeb.request('GET', '/user/bookmarks/')).body).toContain('No bookmarks yet.');
  });

  it('are not offered on a model whose changes are not logged, nor to a visitor', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/dcim/sites/', headers: { accept: 'text/html' } });
    expect(anon.body).not.toContain('class="nav-link bell"');
    const site = await makeSite(t);
    const visitor = await t.app.inject({
      method: 'GET',
      url: `/dcim/sites/${site.id}/`,
      headers: { accept: 'text/html' },
    });
    expect(visitor.body).not.toContain('/user/bookmarks/add/');
    // a user's own bookmark page: bookmarks are not change-logged, so it has no Bookmark button
    const bookmarkPage = await admin.request('GET', '/extras/bookmarks/');
    expect(bookmarkPage.body).not.toContain('action="/user/bookmarks/add/"');
  });
});

describe('an event rule that notifies a notification group', () => {
  it('notifies its users and the users of its groups, not others', async () => {
    const group = await make(t, '/api/users/groups/', { name: uniq('grp') });
    const member = await makeUser(t);
    const viaGroup = await makeUser(t);
    const outsider = await makeUser(t);
    const joined = await t.patch(`/api/users/users/${viaGroup.id}/`, { groups: [group.id] });
    expect(joined.statusCode, joined.body).toBe(200);
    const ng = await t.request('POST', '/api/extras/notification-groups/', {
      body: { name: uniq('ng'), users: [member.id], groups: [group.id] },
      headers: V44,
    });
    expect(ng.statusCode, ng.body).toBe(201);
    const rule = await t.request('POST', '/api/extras/event-rules/', {
      body: {
        name: uniq('rule'),
        object_types: ['dcim.site'],
        event_types: ['object_created'],
        action_type: 'notification',
        action_object_type: 'extras.notificationgroup',
        action_object_id: ng.json().id,
      },
      headers: V44,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    // a 3.4 client cannot name an action its dialect does not have
    const old = await t.post('/api/extras/event-rules/', {
      name: uniq('rule'),
      content_types: ['dcim.site'],
      type_create: true,
      action_type: 'notification',
      action_object_type: 'extras.notificationgroup',
      action_object_id: ng.json().id,
    });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toHaveProperty('action_type');
    // nor may the action and its object disagree
    const mismatch = await t.request('POST', '/api/extras/event-rules/', {
      body: {
        name: uniq('rule'),
        object_types: ['dcim.site'],
        event_types: ['object_created'],
        action_type: 'webhook',
        action_object_type: 'extras.notificationgroup',
        action_object_id: ng.json().id,
      },
      headers: V44,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toHaveProperty('action_object_type');

    const site = await makeSite(t);
    await worker.idle();
    for (const u of [member, viaGroup]) {
      const got = await notificationsOf(u);
      expect(got.map((n) => [n.object_id, n.event_type.value ?? n.event_type])).toEqual([[site.id, 'object_created']]);
    }
    expect(await notificationsOf(outsider)).toHaveLength(0);
    const memberWeb = await signIn(t, member.username, member.password);
    expect(bellOf((await memberWeb.request('GET', '/')).body)).toBe('Notifications, 1 unread');
    // NetBox 4.1: a notification outlives its object (no GenericRelation deletes it)
    expect((await t.del(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(204);
    expect(await notificationsOf(member)).toHaveLength(1);
    await t.del(`/api/extras/event-rules/${rule.json().id}/`);
  });
});

describe('a burst of changes to watched objects', () => {
  it('costs the writer no more statements than unwatched ones, whatever their number', async () => {
    // 200 devices B watches and 200 nobody does, alike
    const first = await makeDevice(t, { name: uniq('burst') });
    const like = { site: first.site.id, device_type: first.device_type.id, device_role: first.device_role.id };
    const batch = async () =>
      (await make(
        t,
        '/api/dcim/devices/',
        Array.from({ length: 200 }, () => ({ ...like, name: uniq('burst') })),
      )) as unknown as Json[];
    const [watched, plain] = [await batch(), await batch()];
    const subscribed = await t.request('POST', '/api/extras/subscriptions/', {
      body: watched.map((d) => ({ object_type: 'dcim.device', object_id: d.id, user: b.id })),
      token: b.token,
      headers: V44,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    let n = 0;
    /** one bulk PATCH of the 200 */
    const burst = (devices: Array<Json>) => () =>
      t.patch(
        '/api/dcim/devices/',
        devices.map((d) => ({ id: d.id, serial: `S-${++n}` })),
      );
    // warm the caches (subscriptions, rules) as a running service has them
    await burst(watched)();
    await burst(plain)();
    await worker.idle();
    // the request's statements alone: the worker (polling, or woken by the commit) would count its own
    await worker.stop();
    t.app.inventory.wakeEventWorker = null;
    const without = await fewestStatements(t.db, burst(plain));
    const watchedRun = await fewestStatements(t.db, burst(watched));
    worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
    expect(without.result.statusCode, without.result.body).toBe(200);
    expect(watchedRun.result.statusCode).toBe(200);
    // the event rows and the delivery rows: two statements, not 200 or 400
    expect(watchedRun.n).toBeLessThanOrEqual(without.n + 2);
    await worker.idle();
    const got = await notificationsOf(b, `&object_type=dcim.device&limit=1000`);
    const ids = new Set(watched.map((d) => d.id));
    expect(got.filter((x) => ids.has(x.object_id))).toHaveLength(200);
    expect(got.filter((x) => plain.some((d) => d.id === x.object_id))).toHaveLength(0);
  });
});

describe("the header's bell", () => {
  it('shows the new count once the worker has written, for at most one statement more', async () => {
    const d = await makeDevice(t, { name: uniq('bell') });
    expect((await press(cWeb, `/dcim/devices/${d.id}/`, '/user/subscriptions/add/')).statusCode).toBe(303);
    await worker.idle();
    // the page's own statements: no worker polling meanwhile
    await worker.stop();
    t.app.inventory.wakeEventWorker = null;
    const page = () => cWeb.request('GET', '/user/profile/');
    const quiet = await fewestStatements(t.db, page);
    expect(bellOf(quiet.result.body)).toBe('Notifications, none unread');
    await t.patch(`/api/dcim/devices/${d.id}/`, { serial: 'B-1' });
    worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
    await worker.idle();
    await worker.stop();
    t.app.inventory.wakeEventWorker = null;
    const before = t.db.stats.queries;
    const after = await page();
    expect(bellOf(after.body)).toBe('Notifications, 1 unread');
    expect(t.db.stats.queries - before).toBeLessThanOrEqual(quiet.n + 1);
    worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
  });
});
