import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ CORS_ORIGINS: 'https://ui.example' });
});
afterAll(async () => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('headers on every response', () => {
  it('carries X-Request-ID, API-Version and Allow on a success', async () => {
    const res = await t.get('/api/dcim/sites/');
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.headers['api-version']).toBe('3.4');
    expect(res.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
  });

  it('carries them on errors and redirects too', async () => {
    for (const [url, token, status, allow] of [
      ['/api/dcim/sites/', null, 403, 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
      ['/api/dcim/sites/999999/', undefined, 404, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS'],
      // the redirect to the slashed path answers only reads
      ['/api/dcim/sites', undefined, 302, 'GET, HEAD, OPTIONS'],
    ] as const) {
      const res = await t.get(url, token);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.headers['api-version']).toBe('3.4');
      expect(res.headers.allow, url).toBe(allow);
    }
  });

  it('gives each request its own id', async () => {
    const a = await t.get('/api/');
    const b = await t.get('/api/');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it("makes ids of version 7, led by the time, and the change records carry the writing request's", async () => {
    const before = Date.now();
    const name = uniq('rid');
    const res = await t.post('/api/dcim/sites/', { name, slug: name });
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const at = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    const changes = (await t.get(`/api/extras/object-changes/?request_id=${id}`)).json();
    expect(changes.results.map((c: { changed_object_id: number }) => c.changed_object_id)).toEqual([res.json().id]);
    // a later request's id sorts after it
    await new Promise((r) => setTimeout(r, 2));
    expect(String((await t.get('/api/')).headers['x-request-id']) > id).toBe(true);
  });

  it('names the detail methods on a detail view', async () => {
    const name = uniq('hdr');
    const site = (await t.post('/api/dcim/sites/', { name, slug: name })).json();
    const res = await t.get(`/api/dcim/sites/${site.id}/`);
    expect(res.headers.allow).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
  });
});

describe('trailing slash', () => {
  it('redirects with 302 to the slashed path, keeping the query string', async () => {
    const res = await t.get('/api/dcim/sites?limit=1&status=active');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/api/dcim/sites/?limit=1&status=active');
  });

  it('redirects a detail path', async () => {
    const res = await t.get('/api/dcim/sites/5');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/api/dcim/sites/5/');
  });
});

describe('root endpoints', () => {
  it('lists all eight apps at /api/ without a token', async () => {
    const res = await t.get('/api/', null);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    for (const app of ['circuits', 'dcim', 'extras', 'ipam', 'plugins', 'tenancy', 'users', 'virtualization']) {
      expect(body[app]).toBe(`http://localhost:80/api/${app}/`);
    }
  });

  it('lists an app root with sorted absolute list URLs', async () => {
    const body = (await t.get('/api/dcim/')).json();
    expect(Object.keys(body)).toEqual([...Object.keys(body)].sort());
    expect(body.sites).toBe('http://localhost:80/api/dcim/sites/');
    expect(body.regions).toBe('http://localhost:80/api/dcim/regions/');
  });

  it('answers /api/status/ in NetBox shape', async () => {
    const body = (await t.get('/api/status/')).json();
    expect(body['netbox-version']).toMatch(/^3\.4\./);
    expect(body).toHaveProperty('installed-apps');
    expect(body).toHaveProperty('plugins');
    expect(typeof body['rq-workers-running']).toBe('number');
  });

  it('honours X-Forwarded-Proto and X-Forwarded-Host in URLs', async () => {
    const res = await t.request('GET', '/api/', {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'nb.example' },
    });
    expect(res.json().dcim).toBe('https://nb.example/api/dcim/');
  });
});

describe('bodies and media types', () => {
  it('pretty-prints with Accept: application/json; indent=4', async () => {
    const res = await t.request('GET', '/api/', { headers: { accept: 'application/json; indent=4' } });
    expect(res.body).toContain('\n    "circuits"');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('refuses a non-JSON body with 415', async () => {
    const res = await t.request('POST', '/api/dcim/sites/', {
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toContain('Unsupported media type');
  });

  it('answers malformed JSON with 400 and a parse error', async () => {
    const res = await t.request('POST', '/api/dcim/sites/', {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^JSON parse error - /);
  });

  it('answers a JSON scalar body with a 400 naming non_field_errors', async () => {
    const res = await t.request('POST', '/api/dcim/sites/', { body: '"just a string"' });
    expect(res.statusCode).toBe(400);
    expect(res.json().non_field_errors[0]).toMatch(/Expected a dictionary, but got str/);
  });

  it('answers 405 to POST on a detail view', async () => {
    const res = await t.post('/api/dcim/sites/1/', {});
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ detail: 'Method "POST" not allowed.' });
  });

  it('answers 404 in JSON for an unknown API path', async () => {
    const res = await t.get('/api/dcim/nothing-here/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers a non-numeric id with 404', async () => {
    const res = await t.get('/api/dcim/sites/abc/');
    expect(res.statusCode).toBe(404);
  });

  it('answers 406 for a foreign version pinned in Accept', async () => {
    const res = await t.request('GET', '/api/', { headers: { accept: 'application/json; version=2.9' } });
    expect(res.statusCode).toBe(406);
  });
});

describe('CORS', () => {
  it('allows a configured origin and answers its preflight', async () => {
    const res = await t.request('OPTIONS', '/api/dcim/sites/', {
      token: null,
      headers: { origin: 'https://ui.example', 'access-control-request-method': 'POST' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://ui.example');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it('gives no CORS header to other origins', async () => {
    const res = await t.request('GET', '/api/', { headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
