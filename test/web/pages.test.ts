/** The home, search and API-token pages, and how they treat data and anonymous visitors. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { newBrowser, signIn, type WebSession } from '../helpers/web-session.js';
import { grant, makeUser, uniq } from '../factories/index.js';

const XSS = '<script>alert(1)</script>';
let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
  const res = await t.post('/api/dcim/sites/', { name: XSS, slug: uniq('xss') });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => t.close());

describe('GET /', () => {
  it("shows the user's dashboard: counts linking to the list pages, the latest changes and the search box", async () => {
    const res = await admin.request('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const sites = (await t.get('/api/dcim/sites/?limit=1')).json().count;
    expect(res.body).toMatch(new RegExp(`<a href="/dcim/sites/">Sites</a></td><td class="num">${sites}</td>`));
    // the default dashboard (test/web/dashboard.test.ts has the rest)
    expect(res.body).toMatch(/<h2 id="widget-\d+">IPAM<\/h2>/);
    expect(res.body).toMatch(/<h2 id="widget-\d+">Change Log<\/h2>/);
    // the site made in beforeAll is the latest change, its name escaped
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain(XSS);
    expect(res.body).toContain('href="/api/schema/swagger-ui/"');
    expect(res.body).toContain('action="/search/"');
  });

  it('shows an anonymous visitor a sign-in link and only what they may view', async () => {
    const res = await newBrowser(t).request('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('href="/login/?next=%2F"');
    expect(res.body).not.toContain('href="/dcim/sites/"');
  });

  it('never puts a script tag of the page in the data: every value is escaped', async () => {
    const res = await admin.request('GET', `/search/?q=${encodeURIComponent('alert(1)')}`);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain(XSS);
    const echo = await admin.request('GET', `/search/?q=${encodeURIComponent('"><script>x</script>')}`);
    expect(echo.body).not.toContain('<script>x</script>');
    expect(echo.body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });
});

describe('GET /search/', () => {
  it('lists matches per model with links to the objects and to the full list', async () => {
    const name = uniq('findme');
    const site = (await t.post('/api/dcim/sites/', { name, slug: name })).json();
    await t.post('/api/dcim/racks/', { name: `${name}-rack`, site: site.id });
    const res = await admin.request('GET', `/search/?q=${name}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<a href="/dcim/sites/${site.id}/">${name}</a>`);
    expect(res.body).toMatch(/Racks <span class="muted">\(1\)<\/span>/);
    expect(res.body).toContain('2 results');
  });

  it('searches only what the user may view', async () => {
    const name = uniq('scoped');
    const seen = (await t.post('/api/dcim/sites/', { name: `${name}-a`, slug: `${name}-a`, status: 'active' })).json();
    const hidden = (
      await t.post('/api/dcim/sites/', { name: `${name}-p`, slug: `${name}-p`, status: 'planned' })
    ).json();
    const rack = await t.post('/api/dcim/racks/', { name: `${name}-rack`, site: seen.id });
    expect(rack.statusCode, rack.body).toBe(201);
    const u = await makeUser(t);
    // sites only, and of those only the active ones (reference 7.4: constraints scope reads)
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.id],
      constraints: { status: 'active' },
    });
    const browser = await signIn(t, u.username, u.password);
    const res = await browser.request('GET', `/search/?q=${name}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<a href="/dcim/sites/${seen.id}/">${name}-a</a>`);
    expect(res.body).not.toContain(`/dcim/sites/${hidden.id}/`);
    expect(res.body).not.toContain(`${name}-rack`);
    expect(res.body).toContain('>1 result for');
    // the superuser finds all three
    expect((await admin.request('GET', `/search/?q=${name}`)).body).toContain('>3 results for');
  });
});

describe('/user/api-tokens/', () => {
  it('sends an anonymous visitor to sign in', async () => {
    const res = await newBrowser(t).request('GET', '/user/api-tokens/');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login/?next=%2Fuser%2Fapi-tokens%2F');
  });

  it('creates a token for the user through the write path, which then authenticates the API', async () => {
    const u = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    const page = await browser.request('GET', '/user/api-tokens/');
    const csrf = page.body.match(/name="csrfmiddlewaretoken" value="(\w{64})"/)![1]!;
    const res = await browser.request('POST', '/user/api-tokens/', {
      form: { csrfmiddlewaretoken: csrf, description: 'from the page', write_enabled: 'on', allowed_ips: '' },
    });
    expect(res.statusCode).toBe(201);
    const key = res.body.match(/<code class="key">(\w{40})<\/code>/)![1]!;
    expect((await t.get('/api/users/config/', key)).statusCode).toBe(200);
    const token = (await t.get(`/api/users/tokens/?key=${key}`)).json().results[0];
    expect(token).toMatchObject({ description: 'from the page', write_enabled: true, user: { id: u.id } });
    const changes = (
      await t.get(`/api/extras/object-changes/?changed_object_type=users.token&changed_object_id=${token.id}`)
    ).json();
    expect(changes.results[0]).toMatchObject({ action: { value: 'create' }, user_name: u.username });
  });

  it('shows the field errors of a bad token and creates nothing', async () => {
    const u = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    const res = await browser.request('POST', '/user/api-tokens/', {
      form: { csrfmiddlewaretoken: browser.csrf(), allowed_ips: 'not-a-network' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('allowed_ips: Enter a valid IPv4 or IPv6 address or prefix: not-a-network');
    const mine = await sql<{ n: number }>`select count(*)::int as n from users_token where user_id = ${u.id}`.execute(
      t.db.kysely,
    );
    expect(mine.rows[0]!.n).toBe(1);
  });

  it("deletes only the user's own tokens", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    const otherId = (await t.get(`/api/users/tokens/?key=${other.token}`)).json().results[0].id;
    const refused = await browser.request('POST', `/user/api-tokens/${otherId}/delete/`, {
      form: { csrfmiddlewaretoken: browser.csrf() },
    });
    expect(refused.statusCode).toBe(404);
    expect((await t.get('/api/users/config/', other.token)).statusCode).toBe(200);
    const ownId = (await t.get(`/api/users/tokens/?key=${u.token}`)).json().results[0].id;
    const res = await browser.request('POST', `/user/api-tokens/${ownId}/delete/`, {
      form: { csrfmiddlewaretoken: browser.csrf() },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/user/api-tokens/');
    expect((await t.get('/api/users/config/', u.token)).statusCode).toBe(403);
  });

  it('needs the CSRF token to create or delete', async () => {
    const res = await admin.request('POST', '/user/api-tokens/', { form: { description: 'no csrf' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'CSRF Failed: CSRF token missing.' });
  });
});

describe('with ALLOW_TOKEN_RETRIEVAL off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await makeTestApp({ ALLOW_TOKEN_RETRIEVAL: 'false' });
  });
  afterAll(async () => off.close());

  it('shows a new key once, on the page that answers its creation, and never in the list', async () => {
    const browser = await signIn(off, off.username, off.password);
    const res = await browser.request('POST', '/user/api-tokens/', {
      form: { csrfmiddlewaretoken: browser.csrf(), description: 'shown once', write_enabled: 'on' },
    });
    expect(res.statusCode).toBe(201);
    const key = res.body.match(/<code class="key">(\w{40})<\/code>/)![1]!;
    expect(res.body).toContain('it will not be shown again');
    const list = await browser.request('GET', '/user/api-tokens/');
    expect(list.body).not.toContain(key);
    expect(list.body).toContain(key.slice(-6));
  });
});

describe('LOGIN_REQUIRED=true', () => {
  let locked: TestApp;
  beforeAll(async () => {
    locked = await makeTestApp({ LOGIN_REQUIRED: 'true' });
  });
  afterAll(async () => locked.close());

  it('sends an anonymous browser to the sign-in page and back after it; API clients still get 403', async () => {
    const browser = newBrowser(locked);
    for (const path of ['/', '/api/dcim/sites/?status=active', '/search/?q=x']) {
      const res = await browser.request('GET', path);
      expect(res.statusCode, path).toBe(302);
      expect(res.headers.location).toBe(`/login/?next=${encodeURIComponent(path)}`);
    }
    const api = await locked.app.inject({
      method: 'GET',
      url: '/api/dcim/sites/',
      headers: { accept: 'application/json' },
    });
    expect(api.statusCode).toBe(403);
    expect((await browser.request('GET', '/login/?next=/api/dcim/sites/')).statusCode).toBe(200);
    const signedIn = await browser.request('POST', '/login/', {
      form: {
        username: locked.username,
        password: locked.password,
        csrfmiddlewaretoken: browser.csrf(),
        next: '/api/dcim/sites/',
      },
    });
    expect(signedIn.headers.location).toBe('/api/dcim/sites/');
    expect(
      (await browser.request('GET', '/api/dcim/sites/', { headers: { accept: 'application/json' } })).statusCode,
    ).toBe(200);
  });

  it('serves the stylesheet to the sign-in page', async () => {
    const login = await newBrowser(locked).request('GET', '/login/');
    const href = login.body.match(/href="(\/static\/inventory\.css\?v=\w+)"/)![1]!;
    const css = await locked.app.inject({ method: 'GET', url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
