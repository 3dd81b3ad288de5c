/**
 * The generic list, object, changelog and journal pages (web/model-pages/), through app.inject()
 * on the suite's engine: what a list shows for its URL, the columns a user keeps, an object's
 * panels and related counts, its changes with their request ids, journal entries, and what a user
 * with fewer permissions sees. Outcomes are checked through the REST API where something is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, makeDevice, makeInterface, makeSite, makeUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const csrfOf = (body: string) => body.match(/name="csrfmiddlewaretoken" value="(\w{64})"/)![1]!;
/** the names in the first column of a list page, in order */
const firstColumn = (body: string) =>
  [...body.matchAll(/<tr><td class="pk">.*?<\/td><td><a href="[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]);
const headers = (body: string) =>
  [...body.matchAll(/<th scope="col"(?: aria-sort="\w+")?>(?:<a [^>]+>)?([^<]+)/g)].map((m) => m[1]);

describe('a list page', () => {
  it('shows the REST filters, lookups, sort, page size and page of its URL, and the count', async () => {
    const tag = uniq('lp');
    for (const [i, status] of ['active', 'planned', 'active', 'active'].entries())
      await makeSite(t, { name: `${tag}-${i}`, slug: `${tag}-${i}`, status });
    const res = await admin.request('GET', `/dcim/sites/?name__isw=${tag}&status=active&sort=-name&per_page=25`);
    expect(res.statusCode).toBe(200);
    expect(firstColumn(res.body)).toEqual([`${tag}-3`, `${tag}-2`, `${tag}-0`]);
    expect(res.body).toContain('<span class="count">3</span>');
    // the filters as removable chips: removing `status` keeps the rest of the URL
    expect(res.body).toContain(
      `href="/dcim/sites/?name__isw=${tag}&amp;sort=-name&amp;per_page=25" aria-label="Remove filter Status: Active"`,
    );
    // the sorted column says so
    expect(res.body).toMatch(/<th scope="col" aria-sort="descending"><a href="[^"]*sort=name[^"]*">Name/);
    const paged = await admin.request('GET', `/dcim/sites/?name__isw=${tag}&sort=name&per_page=25&page=1`);
    expect(firstColumn(paged.body)).toEqual([0, 1, 2, 3].map((i) => `${tag}-${i}`));
    const quick = await admin.request('GET', `/dcim/sites/?q=${tag}-2`);
    expect(firstColumn(quick.body)).toEqual([`${tag}-2`]);
  });

  it('answers a bad filter value with the API message on a 400 page', async () => {
    const res = await admin.request('GET', '/dcim/sites/?id=abc');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('role="alert"');
    expect(res.body).not.toContain('<table class="objects">');
  });

  it('costs the same statements for 3 rows as for 30', async () => {
    const tag = uniq('cost');
    for (let i = 0; i < 30; i++) await makeSite(t, { name: `${tag}-${i}`, slug: `${tag}-${i}` });
    const small = await fewestStatements(t.db, () =>
      admin.request('GET', `/dcim/sites/?name__isw=${tag}-1&per_page=25`),
    );
    const big = await fewestStatements(t.db, () => admin.request('GET', `/dcim/sites/?name__isw=${tag}&per_page=50`));
    expect(firstColumn(big.result.body)).toHaveLength(30);
    expect(big.n).toBeLessThanOrEqual(small.n);
  });

  it("keeps a user's columns and their order server-side, and resets them", async () => {
    const page = await admin.request('GET', '/dcim/sites/');
    const csrf = csrfOf(page.body);
    const post = (form: Record<string, string>, columns: string[]) =>
      admin
        .request('POST', '/dcim/sites/table-config/', {
          form: { csrfmiddlewaretoken: csrf, return_url: '/dcim/sites/?sort=name', ...form },
          headers: {},
          // URLSearchParams of a record cannot repeat a key: the columns go in the raw body below
        } as never)
        .then(() => columns);
    void post;
    const body = new URLSearchParams([
      ['csrfmiddlewaretoken', csrf],
      ['return_url', '/dcim/sites/?sort=name'],
      ['columns', 'name'],
      ['columns', 'facility'],
      ['columns', 'id'],
    ]).toString();
    const saved = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/table-config/',
      headers: {
        cookie: admin.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
      },
      payload: body,
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/dcim/sites/?sort=name');
    expect(headers((await admin.request('GET', '/dcim/sites/')).body)).toEqual(['Name', 'Facility', 'ID']);
    // kept where NetBox keeps it
    const config = (await t.get('/api/users/config/')).json();
    expect(config.tables.SiteTable.columns).toEqual(['name', 'facility', 'id']);
    // move ID up
    const up = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/table-config/',
      headers: {
        cookie: admin.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
      },
      payload: `${body}&up=id`,
    });
    expect(up.statusCode).toBe(303);
    expect(headers((await admin.request('GET', '/dcim/sites/')).body)).toEqual(['Name', 'ID', 'Facility']);
    // without the CSRF token nothing changes
    const forged = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/table-config/',
      headers: {
        cookie: admin.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
      },
      payload: 'columns=status&reset=',
    });
    expect(forged.statusCode).toBe(403);
    expect((await t.get('/api/users/config/')).json().tables.SiteTable.columns).toEqual(['name', 'id', 'facility']);
    const reset = await admin.request('POST', '/dcim/sites/table-config/', {
      form: { csrfmiddlewaretoken: csrf, reset: '1' },
    });
    expect(reset.statusCode).toBe(303);
    expect(headers((await admin.request('GET', '/dcim/sites/')).body).slice(0, 3)).toEqual([
      'Name',
      'Status',
      'Facility',
    ]);
  });
});

describe('an object page', () => {
  it('shows its fields in groups, comments as safe Markdown, tags, and related counts linking to filtered lists', async () => {
    const tag = (await t.post('/api/extras/tags/', { name: uniq('Tag'), slug: uniq('tag'), color: 'ff0000' })).json();
    const site = await makeSite(t, {
      comments: '**core** <script>alert(1)</script>',
      tags: [tag.id],
      facility: 'Hall 7',
    });
    for (const n of ['r1', 'r2']) await t.post('/api/dcim/racks/', { name: uniq(n), site: site.id });
    const res = await admin.request('GET', `/dcim/sites/${site.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h2>Site</h2>');
    expect(res.body).toContain('<th scope="row">Facility</th><td>Hall 7</td>');
    expect(res.body).toContain('<strong>core</strong> &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain(`<a href="/dcim/racks/?site_id=${site.id}">2</a>`);
    expect(res.body).toContain(`href="/extras/tags/${tag.id}/"`);
    expect(res.body).toContain('fill="#ff0000"');
    expect(res.body).toContain(`href="/dcim/sites/${site.id}/edit/" data-hotkey="e"`);
    expect(res.body).toMatch(/href="\/dcim\/sites\/add\/\?status=active&amp;[^"]*facility=Hall\+7/);
    // and the list it links to holds those racks
    const racks = await admin.request('GET', `/dcim/racks/?site_id=${site.id}`);
    expect(racks.body).toContain('<span class="count">2</span>');
  });

  it('is a 404 page for an object that does not exist or is not a number', async () => {
    expect((await admin.request('GET', '/dcim/sites/987654/')).statusCode).toBe(404);
    expect((await admin.request('GET', '/dcim/sites/abc/')).statusCode).toBe(404);
  });
});

describe('the Changelog and Journal tabs', () => {
  it("show each change with its user, action, request id and the fields' before and after", async () => {
    const site = await makeSite(t, { facility: 'old hall' });
    const patched = await t.patch(`/api/dcim/sites/${site.id}/`, { facility: 'new hall' });
    const requestId = patched.headers['x-request-id'] as string;
    const res = await admin.request('GET', `/dcim/sites/${site.id}/changelog/`);
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/<li class="panel change">/g)).toHaveLength(2);
    expect(res.body).toContain(`<code>${requestId}</code>`);
    expect(res.body).toContain(
      '<th scope="row">facility</th><td class="before">old hall</td><td class="after">new hall</td>',
    );
    expect(res.body).toContain('<span class="badge tone-info">Updated</span>');
    expect(res.body).toContain('<span class="badge tone-ok">Created</span>');
    // a device's interface is a related object of the device: its changes follow the device's own
    const device = await makeDevice(t);
    const iface = await makeInterface(t, device);
    const again = await admin.request('GET', `/dcim/devices/${device.id}/changelog/`);
    expect(again.body.match(/<li class="panel change">/g)).toHaveLength(2);
    expect(again.body).toContain('Changes of related objects <span class="count">1</span>');
    expect(again.body).toContain(`<a href="/dcim/interfaces/${iface.id}/">${iface.name}</a>`);
  });

  it('adds a journal entry through the write path, and keeps a refused one typed with its error', async () => {
    const site = await makeSite(t);
    const page = await admin.request('GET', `/dcim/sites/${site.id}/journal/`);
    const csrf = csrfOf(page.body);
    const empty = await admin.request('POST', `/dcim/sites/${site.id}/journal/`, {
      form: { csrfmiddlewaretoken: csrf, kind: 'warning', comments: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('aria-invalid="true" aria-describedby="journal-comments-error"');
    expect(empty.body).toMatch(/<option value="warning" selected>/);
    const url = `/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=${site.id}`;
    expect((await t.get(url)).json().count).toBe(0);
    const ok = await admin.request('POST', `/dcim/sites/${site.id}/journal/`, {
      form: { csrfmiddlewaretoken: csrf, kind: 'warning', comments: 'Replaced **PSU 2**' },
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/dcim/sites/${site.id}/journal/`);
    const written = (await t.get(url)).json();
    expect(written.count).toBe(1);
    expect(written.results[0].kind.value).toBe('warning');
    const shown = await admin.request('GET', `/dcim/sites/${site.id}/journal/`);
    expect(shown.body).toContain('Replaced <strong>PSU 2</strong>');
  });
});

describe('a user with fewer permissions', () => {
  it('sees only the menu entries, objects and buttons their permissions give', async () => {
    const mine = await makeSite(t, { status: 'active', name: uniq('mine') });
    const other = await makeSite(t, { status: 'planned', name: uniq('other') });
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: { status: 'active' },
    });
    const browser = await signIn(t, u.username, u.password);
    const list = await browser.request('GET', `/dcim/sites/?name__isw=${String(mine.name).slice(0, 4)}`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/dcim/sites/${mine.id}/"`);
    expect(list.body).not.toContain(`href="/dcim/sites/${other.id}/"`);
    expect(list.body).not.toContain('data-hotkey="n"');
    // the menu: sites, not devices
    expect(list.body).toContain('<li><a href="/dcim/sites/">Sites</a></li>');
    expect(list.body).not.toContain('<li><a href="/dcim/devices/">Devices</a></li>');
    const page = await browser.request('GET', `/dcim/sites/${mine.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('/edit/"');
    expect(page.body).not.toContain('/delete/"');
    expect((await browser.request('GET', `/dcim/sites/${other.id}/`)).statusCode).toBe(404);
    expect((await browser.request('GET', '/dcim/devices/')).statusCode).toBe(403);
  });

  it("lists the models NetBox 4 added in NetBox 4.4's menu groups", async () => {
    const home = await admin.request('GET', '/dcim/sites/');
    for (const [href, label] of [
      ['/dcim/rack-types/', 'Rack types'],
      ['/dcim/module-type-profiles/', 'Module type profiles'],
      ['/dcim/mac-addresses/', 'MAC addresses'],
      ['/ipam/vlan-translation-policies/', 'VLAN translation policies'],
      ['/circuits/virtual-circuits/', 'Virtual circuits'],
      ['/circuits/circuit-groups/', 'Circuit groups'],
      ['/extras/config-context-profiles/', 'Config context profiles'],
      ['/extras/notification-groups/', 'Notification groups'],
    ])
      expect(home.body, label).toMatch(new RegExp(`<li><a href="${href}">${label}</a></li>`, 'i'));
    // in their group: the MAC addresses under Addressing, after the device components
    expect(home.body).toMatch(/Addressing<\/[^>]+>\s*<ul[^>]*><li><a href="\/dcim\/mac-addresses\/">/);
  });

  it('is sent to sign in from a list when not signed in and not allowed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dcim/devices/', headers: { accept: 'text/html' } });
    expect([302, 200]).toContain(res.statusCode);
    if (res.statusCode === 302) expect(res.headers.location).toBe('/login/?next=%2Fdcim%2Fdevices%2F');
  });
});

describe('the colour mode', () => {
  it("is the system's until the user chooses one on their profile, kept as ui.colormode", async () => {
    const u = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    const profile = await browser.request('GET', '/user/profile/');
    expect(profile.body).toMatch(/<html lang="en">/);
    const csrf = csrfOf(profile.body);
    const saved = await browser.request('POST', '/user/preferences/', {
      form: { csrfmiddlewaretoken: csrf, colormode: 'dark' },
    });
    expect(saved.statusCode).toBe(303);
    expect((await browser.request('GET', '/')).body).toMatch(/<html lang="en" data-theme="dark">/);
    expect((await t.get('/api/users/config/', u.token)).json().ui.colormode).toBe('dark');
    await browser.request('POST', '/user/preferences/', { form: { csrfmiddlewaretoken: csrf, colormode: '' } });
    expect((await browser.request('GET', '/')).body).toMatch(/<html lang="en">/);
  });
});
