/**
 * The dashboard at `/` (web/dashboard/): the user's own widgets from the row
 * /api/extras/dashboard/ reads and writes, their forms (add, configure, move, remove, reset),
 * what each widget may show a user with constrained permissions, and bad input as a 400 page.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { newBrowser, signIn, type WebSession } from '../helpers/web-session.js';
import { grant, make, makeDevice, makeSite, makeUser, type TestUser, uniq } from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

type Dashboard = {
  layout: Array<{ id: string; x: number | null; y: number | null; w: number; h: number }>;
  config: Record<
    string,
    { class: string; title: string | null; color: string | null; config: Record<string, unknown> }
  >;
};

/** a fresh user signed in through the form, and their token for the API */
async function newUser(): Promise<{ user: TestUser; web: WebSession }> {
  const user = await makeUser(t);
  return { user, web: await signIn(t, user.username, user.password) };
}

async function apiDashboard(user: TestUser): Promise<Dashboard> {
  const res = await t.get('/api/extras/dashboard/', user.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Dashboard;
}

/** a form post as a browser sends it (the page's CSRF field, repeated fields for a multiple select) */
async function post(web: WebSession, url: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  body.append('csrfmiddlewaretoken', web.csrf());
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: web.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: body.toString(),
  });
}

/** the titles of the widgets `/` shows, in order */
async function shownTitles(web: WebSession): Promise<string[]> {
  const res = await web.request('GET', '/');
  expect(res.statusCode).toBe(200);
  return [...res.body.matchAll(/<h2 id="widget-\d+">([^<]*)<\/h2>/g)].map((m) => m[1]!);
}

describe('GET / for a new user', () => {
  it('shows the default widgets, the same ones the API answers, in their order', async () => {
    const { user, web } = await newUser();
    const titles = await shownTitles(web);
    expect(titles).toEqual([
      'Bookmarks',
      'Organization',
      'Welcome!',
      'IPAM',
      'Wireless and VPN',
      'Circuits',
      'DCIM',
      'Virtualization',
      'Change Log',
    ]);
    const api = await apiDashboard(user);
    expect(api.layout.map((l) => api.config[l.id]!.title)).toEqual(titles);
    const page = (await web.request('GET', '/')).body;
    expect(page).toContain('>Wireless and VPN</h2>');
    expect(page).toContain('action="/search/"');
    expect(page).toContain('class="panel widget span-12 widget-blue"');
  });

  it('runs one statement per widget at most, however many models a count widget counts', async () => {
    // the superuser may view every model: every count of the default dashboard is shown
    const web = await signIn(t, t.username, t.password);
    expect((await post(web, '/dashboard/reset/', {})).statusCode).toBe(303);
    const statements = async () => {
      await web.request('GET', '/');
      const { n, result } = await fewestStatements(t.db, () => web.request('GET', '/'));
      expect(result.statusCode).toBe(200);
      return { n, counts: (result.body.match(/<td class="num">/g) ?? []).length };
    };
    const full = await statements();
    expect(full.counts).toBe(24);
    const patch = (layout: unknown[], config: unknown) => t.patch('/api/extras/dashboard/', { layout, config });
    await patch([], {});
    const empty = await statements();
    expect(empty.counts).toBe(0);
    // measured: 5 statements for an empty dashboard (session, dashboard row, menu); the default one's
    // 9 widgets add 9 to 11: one per count widget, two for bookmarks, one or more for the change
    // log (its rows' changed objects are read per object type)
    expect(full.n - empty.n).toBeLessThanOrEqual(13);
    const six = ['dcim.site', 'dcim.rack', 'dcim.device', 'ipam.prefix', 'ipam.vlan', 'tenancy.tenant'];
    await patch([{ id: 'c', w: 4, h: 3 }], {
      c: { class: 'extras.ObjectCountsWidget', title: 'Six', color: null, config: { models: six } },
    });
    const counted = await statements();
    expect(counted.counts).toBe(6);
    expect(counted.n - empty.n).toBe(1);
    await post(web, '/dashboard/reset/', {});
  });
});

describe('the dashboard forms write what /api/extras/dashboard/ answers', () => {
  it('adds, configures, moves, removes and resets widgets', async () => {
    const { user, web } = await newUser();
    const before = await apiDashboard(user);
    const form = await web.request('GET', '/dashboard/widgets/add/?widget_class=extras.NoteWidget');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="config-content"');
    const added = await post(web, '/dashboard/widgets/add/', {
      widget_class: 'extras.NoteWidget',
      title: 'My note',
      color: 'purple',
      width: '6',
      'config-content': 'Hello **there**',
    });
    expect(added.statusCode, added.body).toBe(303);
    expect(added.headers.location).toBe('/');
    const afterAdd = await apiDashboard(user);
    expect(afterAdd.layout).toHaveLength(before.layout.length + 1);
    const last = afterAdd.layout.at(-1)!;
    expect(last).toMatchObject({ w: 6, h: 3 });
    expect(afterAdd.config[last.id]).toEqual({
      class: 'extras.NoteWidget',
      title: 'My note',
      color: 'purple',
      config: { content: 'Hello **there**' },
    });
    // every other widget kept its config
    for (const l of before.layout) expect(afterAdd.config[l.id]).toEqual(before.config[l.id]);
    const page = (await web.request('GET', '/')).body;
    expect(page).toContain('<strong>there</strong>');
    expect(page).toContain('class="panel widget span-6 widget-purple"');

    // configure: the form shows the current values; the post replaces them
    const id = last.id;
    const conf = await web.request('GET', `/dashboard/widgets/${id}/configure/`);
    expect(conf.body).toContain('value="My note"');
    expect(conf.body).toContain('Hello **there**</textarea>');
    const saved = await post(web, `/dashboard/widgets/${id}/configure/`, {
      widget_class: 'extras.NoteWidget',
      title: 'Renamed',
      color: '',
      width: '12',
      'config-content': 'Changed',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    const afterConf = await apiDashboard(user);
    expect(afterConf.config[id]).toEqual({
      class: 'extras.NoteWidget',
      title: 'Renamed',
      color: null,
      config: { content: 'Changed' },
    });
    expect(afterConf.layout.find((l) => l.id === id)).toMatchObject({ w: 12 });

    // move: one place earlier, then to the front
    const order = (d: Dashboard) => d.layout.map((l) => l.id);
    expect((await post(web, `/dashboard/widgets/${id}/move/`, { move: 'up' })).statusCode).toBe(303);
    const up = order(await apiDashboard(user));
    expect(up.indexOf(id)).toBe(up.length - 2);
    expect((await post(web, `/dashboard/widgets/${id}/move/`, { move: 'first' })).statusCode).toBe(303);
    const moved = await apiDashboard(user);
    expect(order(moved)[0]).toBe(id);
    // the layout is flowed in display order, so NetBox's grid shows the same order
    expect(moved.layout[0]).toMatchObject({ x: 0, y: 0 });
    expect((await shownTitles(web))[0]).toBe('Renamed');

    // remove: a confirmation page, then the post
    const confirm = await web.request('GET', `/dashboard/widgets/${id}/delete/`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Remove Renamed?');
    expect((await post(web, `/dashboard/widgets/${id}/delete/`, {})).statusCode).toBe(303);
    const removed = await apiDashboard(user);
    expect(removed.config[id]).toBeUndefined();
    expect(order(removed)).toEqual(order(before));

    // reset: the default widgets again, under new ids
    await post(web, '/dashboard/widgets/add/', {
      widget_class: 'extras.NoteWidget',
      width: '4',
      'config-content': 'x',
    });
    expect((await web.request('GET', '/dashboard/reset/')).statusCode).toBe(200);
    expect((await post(web, '/dashboard/reset/', {})).statusCode).toBe(303);
    const reset = await apiDashboard(user);
    expect(reset.layout.map((l) => reset.config[l.id]!.title)).toEqual(
      before.layout.map((l) => before.config[l.id]!.title),
    );
    expect(order(reset)).not.toEqual(order(before));
  });

  it('shows what a PATCH through the API wrote', async () => {
    const { user, web } = await newUser();
    const title = uniq('patched');
    const res = await t.patch(
      '/api/extras/dashboard/',
      {
        layout: [
          { id: 'a', x: 0, y: 0, w: 3, h: 2 },
          { id: 'b', x: 3, y: 0, w: 9, h: 2 },
          { id: 'c', x: 0, y: 2, w: 4, h: 2 },
        ],
        config: {
          a: { class: 'extras.NoteWidget', title, color: null, config: { content: 'from the API' } },
          b: { class: 'plugin.MysteryWidget', title: 'Mystery', color: null, config: {} },
          c: { class: 'extras.RSSFeedWidget', title: 'News', color: null, config: { feed_url: 'http://127.0.0.1:9/' } },
        },
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = await web.request('GET', '/');
    expect(page.statusCode).toBe(200);
    expect(await shownTitles(web)).toEqual([title, 'Mystery', 'News']);
    expect(page.body).toContain('from the API');
    // a feed is named, never fetched
    expect(page.body).toContain('Feeds are not fetched by this service.');
    // an unknown class is a muted panel, not an error
    expect(page.body).toContain('class="panel widget span-9 muted"');
    expect(page.body).toContain('Unknown widget: <code>plugin.MysteryWidget</code>');
  });
});

describe('odd data the API accepts', () => {
  it('shows and moves it without an error: odd ids, sizes out of range, items without config', async () => {
    const { user, web } = await newUser();
    const odd = 'x y/ü<b>';
    const res = await t.patch(
      '/api/extras/dashboard/',
      {
        layout: [
          { id: 'n', w: 40, h: 'tall' },
          { nothing: true },
          { id: odd, w: 2, h: 2 },
          { id: 'ghost', w: 3, h: 1 },
          { id: 'gone', w: 3, h: 1 },
        ],
        config: {
          n: { class: 'extras.NoteWidget', title: 'Wide', color: 'no such colour', config: 'not an object' },
          [odd]: { class: 'extras.ObjectListWidget', title: 'Odd', color: null, config: { model: 42 } },
          // NetBox 4's name of the change log
          ghost: {
            class: 'extras.ObjectListWidget',
            title: 'Changes',
            color: null,
            config: { model: 'core.ObjectChange' },
          },
          spare: { class: 'extras.NoteWidget', title: 'Not in the layout', color: null, config: {} },
        },
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const page = await web.request('GET', '/');
    expect(page.statusCode).toBe(200);
    expect(await shownTitles(web)).toEqual(['Wide', 'Odd', 'Changes', 'Unknown widget']);
    // known under its NetBox 4 name, and not for this user to see
    expect(page.body).toContain('You may not view object changes.');
    expect(page.body).toContain('class="panel widget span-4" id="w-n"');
    expect(page.body).toContain('Unknown model: 42');
    const move = await post(web, `/dashboard/widgets/${encodeURIComponent(odd)}/move/`, { move: 'first' });
    expect(move.statusCode).toBe(303);
    expect(move.headers.location).toBe(`/#w-${encodeURIComponent(odd)}`);
    const d = await apiDashboard(user);
    expect(d.layout.map((l) => l.id)).toEqual([odd, 'n', 'ghost', 'gone']);
    // the grid item without config stays so; the config no item shows is dropped, as NetBox's delete_widget does
    expect(Object.keys(d.config).sort()).toEqual(['ghost', 'n', odd].sort());
    expect(d.layout[1]).toMatchObject({ w: 4, h: 3 });
  });
});

describe('what widgets show a user with constrained permissions', () => {
  it('counts and lists only the objects the user may view', async () => {
    const mine = await makeSite(t);
    const other = await makeSite(t);
    const seen = await makeDevice(t, { site: mine.id });
    const hidden = await makeDevice(t, { site: other.id });
    const { user, web } = await newUser();
    await grant(t, {
      object_types: ['dcim.device'],
      actions: ['view'],
      users: [user.id],
      constraints: { site_id: mine.id },
    });
    const res = await t.patch(
      '/api/extras/dashboard/',
      {
        layout: [
          { id: 'c', w: 4, h: 2 },
          { id: 'l', w: 8, h: 4 },
        ],
        config: {
          c: {
            class: 'extras.ObjectCountsWidget',
            title: 'Counts',
            color: null,
            config: { models: ['dcim.device', 'dcim.site'] },
          },
          l: {
            class: 'extras.ObjectListWidget',
            title: 'Devices',
            color: null,
            config: { model: 'dcim.device', page_size: 100 },
          },
        },
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const body = (await web.request('GET', '/')).body;
    // one device counted (the API agrees), linked to its list; sites are not viewable: left out
    expect((await t.get('/api/dcim/devices/?limit=1', user.token)).json().count).toBe(1);
    expect(body).toContain('<td><a href="/dcim/devices/">Devices</a></td><td class="num">1</td>');
    expect(body).not.toContain('href="/dcim/sites/"');
    expect(body).toContain(`<a href="/dcim/devices/${seen.id}/">${seen.name}</a>`);
    expect(body).not.toContain(`/dcim/devices/${hidden.id}/`);
    expect(body).toContain('All 1 devices');
  });

  it("counts with the widget's filters, linking to the filtered list", async () => {
    const site = await makeSite(t);
    await makeDevice(t, { site: site.id });
    await makeDevice(t, { site: site.id });
    const { user, web } = await newUser();
    await grant(t, { object_types: ['dcim.device'], actions: ['view'], users: [user.id] });
    const added = await post(web, '/dashboard/widgets/add/', {
      widget_class: 'extras.ObjectCountsWidget',
      title: 'Filtered',
      width: '4',
      'config-models': ['dcim.device'],
      'config-filters': JSON.stringify({ site_id: site.id }),
    });
    expect(added.statusCode, added.body).toBe(303);
    const d = await apiDashboard(user);
    expect(d.config[d.layout.at(-1)!.id]!.config).toEqual({ models: ['dcim.device'], filters: { site_id: site.id } });
    const body = (await web.request('GET', '/')).body;
    expect(body).toContain(`<td><a href="/dcim/devices/?site_id=${site.id}">Devices</a></td><td class="num">2</td>`);
  });
});

describe('saved-filter lists and bookmarks', () => {
  it("lists a saved filter's objects, linking to the full list with it", async () => {
    const prefix = uniq('sf');
    const wanted = await makeSite(t, { name: `${prefix}-a`, slug: `${prefix}-a`, status: 'planned' });
    const other = await makeSite(t, { name: `${prefix}-b`, slug: `${prefix}-b`, status: 'active' });
    const slug = uniq('planned');
    const saved = await t.post('/api/extras/saved-filters/', {
      name: slug,
      slug,
      content_types: ['dcim.site'],
      parameters: { status: ['planned'], q: [prefix] },
      shared: true,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const { user, web } = await newUser();
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
    const added = await post(web, '/dashboard/widgets/add/', {
      widget_class: 'extras.ObjectListWidget',
      title: 'Planned',
      width: '12',
      'config-model': 'dcim.site',
      'config-page_size': '5',
      'config-url_params': JSON.stringify({ filter: slug }),
    });
    expect(added.statusCode, added.body).toBe(303);
    const body = (await web.request('GET', '/')).body;
    expect(body).toContain(`<a href="/dcim/sites/${wanted.id}/">${wanted.name}</a>`);
    expect(body).not.toContain(`/dcim/sites/${other.id}/`);
    expect(body).toContain(`<a href="/dcim/sites/?filter=${slug}">All 1 sites</a>`);
  });

  it("shows the user's bookmarks of the chosen types, in the chosen order", async () => {
    const { user, web } = await newUser();
    await grant(t, { object_types: ['dcim.site', 'tenancy.tenant'], actions: ['view'], users: [user.id] });
    const b = await makeSite(t, { name: uniq('b-site') });
    const a = await makeSite(t, { name: uniq('a-site') });
    const tenant = await t.post('/api/tenancy/tenants/', { name: uniq('tenant'), slug: uniq('tenant') });
    for (const [type, id] of [
      ['dcim.site', b.id],
      ['dcim.site', a.id],
      ['tenancy.tenant', tenant.json().id],
    ]) {
      const res = await t.post('/api/extras/bookmarks/', { object_type: type, object_id: id }, user.token);
      expect(res.statusCode, res.body).toBe(201);
    }
    await t.patch(
      '/api/extras/dashboard/',
      {
        layout: [{ id: 'b', w: 4, h: 3 }],
        config: {
          b: {
            class: 'extras.BookmarksWidget',
            title: 'Sites',
            color: null,
            config: { object_types: ['dcim.site'], order_by: 'name' },
          },
        },
      },
      user.token,
    );
    const body = (await web.request('GET', '/')).body;
    const shown = [...body.matchAll(/<li><a href="(\/[a-z]+\/[a-z-]+\/\d+\/)">/g)].map((m) => m[1]);
    expect(shown).toEqual([`/dcim/sites/${a.id}/`, `/dcim/sites/${b.id}/`]);
    // newest first (the default order), every type
    await t.patch(
      '/api/extras/dashboard/',
      {
        config: { b: { class: 'extras.BookmarksWidget', title: 'All', color: null, config: { order_by: '-created' } } },
      },
      user.token,
    );
    const all = [...(await web.request('GET', '/')).body.matchAll(/<li><a href="(\/[a-z]+\/[a-z-]+\/\d+\/)">/g)].map(
      (m) => m[1],
    );
    expect(all).toEqual([`/tenancy/tenants/${tenant.json().id}/`, `/dcim/sites/${a.id}/`, `/dcim/sites/${b.id}/`]);
  });
});

describe('bad input', () => {
  it('answers bad config with a 400 form page and its message, writing nothing', async () => {
    const { user, web } = await newUser();
    const before = await apiDashboard(user);
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [
        { widget_class: 'extras.ObjectListWidget', width: '4', 'config-model': 'dcim.nosuchthing' },
        'Select a valid choice. dcim.nosuchthing is not one of the available choices.',
      ],
      [
        {
          widget_class: 'extras.ObjectCountsWidget',
          width: '4',
          'config-models': ['dcim.site'],
          'config-filters': '{not json',
        },
        'Enter a valid JSON.',
      ],
      [
        {
          widget_class: 'extras.ObjectCountsWidget',
          width: '4',
          'config-models': ['dcim.site'],
          'config-filters': '[1]',
        },
        'Filters must be passed as a dictionary',
      ],
      [
        { widget_class: 'extras.NoteWidget', width: '13', 'config-content': 'x' },
        'The width must be a whole number from 1 to 12.',
      ],
      [
        { widget_class: 'extras.NoteWidget', width: '0', 'config-content': 'x' },
        'The width must be a whole number from 1 to 12.',
      ],
      [{ widget_class: 'extras.NoteWidget', width: '4', 'config-content': '' }, 'This field is required.'],
      [
        { widget_class: 'extras.NoteWidget', width: '4', color: 'chartreuse', 'config-content': 'x' },
        'Select a valid choice. chartreuse',
      ],
      [{ widget_class: 'nope.Widget', width: '4' }, 'Unknown widget type: nope.Widget'],
    ];
    for (const [fields, message] of cases) {
      const res = await post(web, '/dashboard/widgets/add/', fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain(message);
      expect(res.body).toContain('role="alert"');
    }
    // a bad configure keeps the widget as it was
    const id = before.layout[0]!.id;
    const res = await post(web, `/dashboard/widgets/${id}/configure/`, {
      widget_class: 'extras.BookmarksWidget',
      width: '99',
      'config-order_by': 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('aria-invalid="true"');
    expect(await apiDashboard(user)).toEqual(before);
    // unknown widgets and moves
    expect((await web.request('GET', '/dashboard/widgets/nope/configure/')).statusCode).toBe(404);
    expect((await post(web, '/dashboard/widgets/nope/delete/', {})).statusCode).toBe(404);
    expect((await post(web, `/dashboard/widgets/${id}/move/`, { move: 'sideways' })).statusCode).toBe(400);
    expect(await apiDashboard(user)).toEqual(before);
  });

  it("shows a filter the list refuses inside its widget, not as the page's error", async () => {
    const { user, web } = await newUser();
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
    await t.patch(
      '/api/extras/dashboard/',
      {
        layout: [{ id: 'l', w: 12, h: 4 }],
        config: {
          l: {
            class: 'extras.ObjectListWidget',
            title: 'Bad',
            color: null,
            config: { model: 'dcim.site', url_params: { id: 'abc' } },
          },
        },
      },
      user.token,
    );
    const res = await web.request('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<p class="field-error" role="alert">[^<]+<\/p>/);
  });

  it("escapes a note's raw HTML", async () => {
    const { web } = await newUser();
    const res = await post(web, '/dashboard/widgets/add/', {
      widget_class: 'extras.NoteWidget',
      width: '4',
      title: '<b>t</b>',
      'config-content': '<script>alert(1)</script>',
    });
    expect(res.statusCode).toBe(303);
    const body = (await web.request('GET', '/')).body;
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>alert(1)');
    expect(body).toContain('&lt;b&gt;t&lt;/b&gt;');
  });

  it('refuses a form post without the CSRF token', async () => {
    const { user, web } = await newUser();
    const before = await apiDashboard(user);
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/reset/',
      headers: { cookie: web.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode).toBe(403);
    expect(await apiDashboard(user)).toEqual(before);
  });
});

describe('an anonymous visitor', () => {
  it('sees the default dashboard read-only, with a sign-in link and no forms of its own', async () => {
    const res = await newBrowser(t).request('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('href="/login/?next=%2F"');
    expect(res.body).toContain('<h2 id="widget-0">Bookmarks</h2>');
    expect(res.body).not.toContain('/dashboard/widgets/');
    expect(res.body).not.toContain('href="/dcim/sites/"');
    const add = await newBrowser(t).request('GET', '/dashboard/widgets/add/');
    expect(add.statusCode).toBe(302);
    expect(add.headers.location).toBe('/login/?next=%2Fdashboard%2Fwidgets%2Fadd%2F');
  });

  it('sees the counts of the models exempt from view permissions, and the change log if exempt', async () => {
    const open = await makeTestApp({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site,ipam.prefix' });
    try {
      const site = await make(open, '/api/dcim/sites/', { name: uniq('open'), slug: uniq('open') });
      const res = await newBrowser(open).request('GET', '/');
      expect(res.statusCode).toBe(200);
      const sites = (await open.get('/api/dcim/sites/?limit=1')).json().count;
      expect(sites).toBeGreaterThan(0);
      expect(res.body).toContain(`<td><a href="/dcim/sites/">Sites</a></td><td class="num">${sites}</td>`);
      expect(res.body).toContain('<td><a href="/ipam/prefixes/">Prefixes</a></td>');
      expect(res.body).not.toContain('href="/dcim/racks/"');
      expect(res.body).not.toContain(`/dcim/sites/${site.id}/`);
      // nothing stored for a visitor
      const stored = await sql<{ n: number }>`select count(*)::int as n from extras_dashboard`.execute(open.db.kysely);
      expect(stored.rows[0]!.n).toBe(0);
    } finally {
      await open.close();
    }
  });
});
