/**
 * The browsable API through inject: which clients get a page and which get JSON, the
 * page's links and escaping, its list controls without JavaScript, and the write forms round trip
 * (session cookie, CSRF token, `_content`, `?_method=`), on the suite's engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { newBrowser, signIn, type WebSession } from '../helpers/web-session.js';
import { uniq, makeSite } from '../factories/index.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const XSS = '<script>alert(1)</script>';

let t: TestApp;
let browser: WebSession;

beforeAll(async () => {
  t = await makeTestApp();
  browser = await signIn(t, t.username, t.password);
});
afterAll(async () => {
  await t.close();
});

/** the CSRF token a page's forms carry (masked, changes with every page) */
function formToken(page: string): string {
  const m = page.match(/name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"/);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

function textarea(page: string): string {
  const m = page.match(/<textarea[^>]*name="_content"[^>]*>([\s\S]*?)<\/textarea>/);
  if (!m) throw new Error('no content text area on the page');
  return m[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('negotiation', () => {
  it('answers a browser with a page carrying the CSP and no-store', async () => {
    const res = await t.request('GET', '/api/dcim/sites/', { headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.body).toContain('<pre class="json" tabindex="0">');
  });

  it('answers curl (*/*), pynetbox (application/json) and no Accept with the same JSON, without page headers', async () => {
    await makeSite(t);
    const answers = await Promise.all(
      ([{ accept: '*/*' }, { accept: 'application/json' }, {}] as Array<Record<string, string>>).map((headers) =>
        t.request('GET', '/api/dcim/sites/?ordering=id', { headers }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['cache-control']).toBeUndefined();
      expect(res.body).toBe(answers[0]!.body);
    }
    expect(answers[0]!.json().count).toBeGreaterThan(0);
  });

  it('keeps pretty printing by Accept indent for JSON clients', async () => {
    const res = await t.request('GET', '/api/status/', { headers: { accept: 'application/json; indent=4' } });
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.body).toMatch(/^\{\n {4}"/);
  });

  it('gives JSON to a browser that asks ?format=json, and a page to a JSON client that asks ?format=api', async () => {
    const json = await t.request('GET', '/api/dcim/sites/?format=json', { headers: { accept: BROWSER } });
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.json()).toHaveProperty('results');
    const page = await t.request('GET', '/api/dcim/sites/?format=api', { headers: { accept: 'application/json' } });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h1>Sites</h1>');
  });

  it('serves the response cache JSON to JSON clients and pages to browsers, whoever asked first', async () => {
    const url = '/api/dcim/sites/?limit=3';
    for (let i = 0; i < 3; i++) {
      const page = await t.request('GET', url, { headers: { accept: BROWSER } });
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      const json = await t.request('GET', url, { headers: { accept: '*/*' } });
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(json.json()).toHaveProperty('count');
    }
  });

  it('renders the API root, an app root and the status as pages of links', async () => {
    const root = await t.request('GET', '/api/', { headers: { accept: BROWSER } });
    expect(root.body).toContain('<h1>API root</h1>');
    expect(root.body).toContain('<a href="/api/dcim/">');
    const app = await t.request('GET', '/api/ipam/', { headers: { accept: BROWSER } });
    expect(app.body).toContain('<a href="/api/ipam/prefixes/">');
    const status = await t.request('GET', '/api/status/', { headers: { accept: BROWSER } });
    expect(status.statusCode).toBe(200);
    expect(status.body).toContain('netbox-version');
  });

  it('renders an error as a page with its status', async () => {
    const res = await t.request('GET', '/api/dcim/sites/99999999/', { headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('HTTP 404 Not Found');
    expect(res.body).toContain('<span class="k">"detail"</span>');
  });

  it('answers HEAD with the page headers and no body', async () => {
    const res = await t.request('HEAD', '/api/dcim/sites/', { headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('');
  });
});

describe('the page', () => {
  it('shows a site named like a script only as text, and its URL as a local link', async () => {
    const site = await makeSite(t, { name: XSS, slug: uniq('s') });
    const res = await browser.request('GET', `/api/dcim/sites/${site.id}/`);
    expect(res.body).not.toContain(XSS);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain(`<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>`);
    expect(res.body).toContain(`<a href="/api/dcim/sites/${site.id}/">`);
    expect(res.body).toContain(`href="/api/dcim/sites/${site.id}/?format=json"`);
    // breadcrumbs from the path
    expect(res.body).toMatch(/<li><a href="\/api\/dcim\/sites\/">Sites<\/a><\/li>/);
    const list = await browser.request('GET', `/api/dcim/sites/?id=${site.id}`);
    expect(list.body).not.toContain(XSS);
  });

  it('shows the request line and the response status line with Allow, Content-Type and Vary', async () => {
    const res = await browser.request('GET', '/api/dcim/sites/?limit=1');
    expect(res.body).toContain('<strong>GET /api/dcim/sites/?limit=1</strong>');
    expect(res.body).toContain('HTTP 200 OK');
    expect(res.body).toContain('Allow: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(res.body).toContain('Content-Type: application/json; charset=utf-8');
    expect(res.body).toContain('Vary: Accept, Origin');
  });

  it('links the next and previous pages, and shows the filters in force with a link that removes each', async () => {
    await makeSite(t);
    await makeSite(t);
    const first = await browser.request('GET', '/api/dcim/sites/?status=active&limit=1');
    expect(first.body).toContain('rel="next" href="/api/dcim/sites/?limit=1&amp;offset=1&amp;status=active"');
    expect(first.body).toContain('<code>status=active</code> <a href="/api/dcim/sites/?limit=1"');
    // the filter stays when the form is submitted again (a hidden field)
    expect(first.body).toContain('<input type="hidden" name="status" value="active">');
    const second = await browser.request('GET', '/api/dcim/sites/?status=active&limit=1&offset=1');
    expect(second.body).toMatch(/rel="prev" href="\/api\/dcim\/sites\/\?limit=1&amp;status=active"/);
  });

  it('offers the filter names of the model in a datalist and the ordering names', async () => {
    const res = await browser.request('GET', '/api/dcim/sites/');
    expect(res.body).toContain('<option value="status__n">');
    expect(res.body).toContain('<option value="-name">');
  });

  it('turns an empty filter field into no filter, and "add a filter" into name=value, by a redirect', async () => {
    const empty = await browser.request(
      'GET',
      '/api/dcim/sites/?q=&status=&ordering=&limit=&_filter_name=&_filter_value=',
    );
    expect(empty.statusCode).toBe(302);
    expect(empty.headers.location).toBe('/api/dcim/sites/');
    const added = await browser.request('GET', '/api/dcim/sites/?q=&limit=5&_filter_name=status&_filter_value=planned');
    expect(added.statusCode).toBe(302);
    expect(added.headers.location).toBe('/api/dcim/sites/?limit=5&status=planned');
    const page = await browser.request('GET', added.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<code>status=planned</code>');
    // a JSON client's request is never rewritten
    const json = await t.request('GET', '/api/dcim/sites/?status=', { headers: { accept: '*/*' } });
    expect(json.statusCode).toBe(400);
  });

  it('pre-fills the object form with its writable fields, related objects as ids', async () => {
    const region = await t.post('/api/dcim/regions/', { name: uniq('r'), slug: uniq('r') });
    const site = await t.post('/api/dcim/sites/', { name: uniq('site'), slug: uniq('s'), region: region.json().id });
    const page = await browser.request('GET', `/api/dcim/sites/${site.json().id}/`);
    const form = JSON.parse(textarea(page.body));
    expect(form.region).toBe(region.json().id);
    expect(form.status).toBe('active');
    expect(form).not.toHaveProperty('id');
    expect(form).not.toHaveProperty('url');
    expect(form).not.toHaveProperty('display');
    expect(form).not.toHaveProperty('device_count');
    expect(form).not.toHaveProperty('created');
    // the form as it stands is a valid PUT
    const put = await t.put(`/api/dcim/sites/${site.json().id}/`, form);
    expect(put.statusCode).toBe(200);
  });

  it('pre-fills the list form with the required fields', async () => {
    const page = await browser.request('GET', '/api/dcim/sites/');
    expect(JSON.parse(textarea(page.body))).toEqual({ name: '', slug: '' });
  });
});

describe('who gets forms', () => {
  it('shows an anonymous browser no forms but a sign-in link', async () => {
    const open = await makeTestApp({ EXEMPT_VIEW_PERMISSIONS: '*' });
    try {
      const site = (await open.post('/api/dcim/sites/', { name: uniq('site'), slug: uniq('s') })).json();
      const res = await newBrowser(open).request('GET', `/api/dcim/sites/${site.id}/`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<h1>${site.name}</h1>`);
      expect(res.body).not.toContain('name="_content"');
      expect(res.body).toContain(
        `href="/login/?next=${encodeURIComponent(`/api/dcim/sites/${site.id}/`)}">Sign in to change`,
      );
    } finally {
      await open.close();
    }
  });

  it('shows an anonymous browser refused a read (403) the way to sign in', async () => {
    const res = await newBrowser(t).request('GET', '/api/dcim/sites/');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('HTTP 403 Forbidden');
    expect(res.body).toContain(
      `<a href="/login/?next=${encodeURIComponent('/api/dcim/sites/')}">Sign in</a> to see this.`,
    );
    expect(res.body).not.toContain('name="_content"');
  });

  it('shows no forms on a read-only model', async () => {
    const res = await browser.request('GET', '/api/extras/content-types/');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('name="_content"');
    expect(res.body).not.toContain('Sign in to change');
  });
});

describe('the write forms', () => {
  async function post(url: string, content: string, page: string) {
    return browser.request('POST', url, { form: { csrfmiddlewaretoken: formToken(page), _content: content } });
  }

  it('creates with POST and sends the browser to the new object (303)', async () => {
    const list = await browser.request('GET', '/api/dcim/sites/');
    const name = uniq('form-site');
    const res = await post('/api/dcim/sites/', JSON.stringify({ name, slug: uniq('s') }), list.body);
    expect(res.statusCode).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/api\/dcim\/sites\/\d+\/$/);
    const shown = await browser.request('GET', location);
    expect(shown.body).toContain(`<h1>${name}</h1>`);
  });

  it('shows the validation error with status 400 and keeps the submitted text', async () => {
    const list = await browser.request('GET', '/api/dcim/sites/');
    const content = `{"name": "${uniq('bad')}", "slug": "not a slug!"}`;
    const res = await post('/api/dcim/sites/', content, list.body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('role="alert"');
    expect(res.body).toMatch(/<li>slug: [^<]*(letters|slug)/i);
    expect(res.body).toContain('HTTP 400 Bad Request');
    expect(textarea(res.body)).toBe(content);
  });

  it('shows a JSON syntax error the same way', async () => {
    const list = await browser.request('GET', '/api/dcim/sites/');
    const res = await post('/api/dcim/sites/', '{"name": ', list.body);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('role="alert"');
    expect(textarea(res.body)).toBe('{"name": ');
  });

  it('patches and puts through ?_method=, then shows the object (303)', async () => {
    const site = await makeSite(t);
    const page = await browser.request('GET', `/api/dcim/sites/${site.id}/`);
    expect(page.body).toContain(`formaction="/api/dcim/sites/${site.id}/?_method=PATCH"`);
    const patched = await post(
      `/api/dcim/sites/${site.id}/?_method=PATCH`,
      '{"description": "patched by form"}',
      page.body,
    );
    expect(patched.statusCode).toBe(303);
    expect(patched.headers.location).toBe(`/api/dcim/sites/${site.id}/`);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().description).toBe('patched by form');

    const put = await post(
      `/api/dcim/sites/${site.id}/?_method=PUT`,
      JSON.stringify({ name: site.name, slug: site.slug, facility: 'put' }),
      page.body,
    );
    expect(put.statusCode).toBe(303);
    const after = (await t.get(`/api/dcim/sites/${site.id}/`)).json();
    expect(after.facility).toBe('put');
    // as in DRF, a PUT leaves the optional fields it does not name as they were
    expect(after.description).toBe('patched by form');
  });

  it('deletes through ?_method=DELETE and sends the browser to the list (204 -> 303)', async () => {
    const site = await makeSite(t);
    const page = await browser.request('GET', `/api/dcim/sites/${site.id}/`);
    const res = await browser.request('POST', `/api/dcim/sites/${site.id}/?_method=DELETE`, {
      form: { csrfmiddlewaretoken: formToken(page.body), _content: '' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/api/dcim/sites/');
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(404);
  });

  it('refuses a form without its CSRF token (403 page), and changes nothing', async () => {
    const site = await makeSite(t);
    const res = await browser.request('POST', `/api/dcim/sites/${site.id}/?_method=DELETE`, { form: { _content: '' } });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('CSRF Failed');
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(200);
  });

  it('overrides the method only for a form post: a JSON POST with ?_method=DELETE creates', async () => {
    const res = await t.post('/api/dcim/sites/?_method=DELETE', { name: uniq('json'), slug: uniq('s') });
    expect(res.statusCode).toBe(201);
  });

  it('answers an unknown ?_method= as the POST it is', async () => {
    const site = await makeSite(t);
    const page = await browser.request('GET', `/api/dcim/sites/${site.id}/`);
    const res = await post(`/api/dcim/sites/${site.id}/?_method=TRACE`, '{}', page.body);
    expect(res.statusCode).toBe(405);
    expect(res.body).toContain('HTTP 405');
  });
});

describe('other endpoints', () => {
  it('offers a POST form wherever the route takes one: available IPs of a prefix', async () => {
    const prefix = (await t.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/29' })).json();
    const url = `/api/ipam/prefixes/${prefix.id}/available-ips/`;
    const page = await browser.request('GET', url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<form method="post" action="${url}">`);
    expect(page.body).toMatch(/<li><a href="\/api\/ipam\/prefixes\/">Prefixes<\/a><\/li>/);
    const res = await browser.request('POST', url, {
      form: { csrfmiddlewaretoken: formToken(page.body), _content: '{}' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('HTTP 201 Created');
    expect(res.body).toContain('10.77.0.1/29');
  });
});

describe('LOGIN_REQUIRED', () => {
  it('sends an anonymous browser to /login/?next= and refuses a JSON client', async () => {
    const locked = await makeTestApp({ LOGIN_REQUIRED: 'true' });
    try {
      const anon = newBrowser(locked);
      const res = await anon.request('GET', '/api/dcim/sites/?limit=2');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`/login/?next=${encodeURIComponent('/api/dcim/sites/?limit=2')}`);
      const json = await locked.request('GET', '/api/dcim/sites/', { token: null, headers: { accept: '*/*' } });
      expect(json.statusCode).toBe(403);
      expect(json.headers['content-type']).toContain('application/json');
      const signedIn = await signIn(locked, locked.username, locked.password);
      expect((await signedIn.request('GET', '/api/dcim/sites/')).statusCode).toBe(200);
    } finally {
      await locked.close();
    }
  });
});
