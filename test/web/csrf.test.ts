/**
 * CSRF for session-authenticated API requests: unsafe requests carry X-CSRFToken (or the
 * form field), a foreign Origin is refused, token-authenticated requests need nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskSecret } from '../../src/http/csrf.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import { uniq } from '../factories/index.js';

let t: TestApp;
let browser: WebSession;
beforeAll(async () => {
  t = await makeTestApp({ CSRF_TRUSTED_ORIGINS: 'https://trusted.example' });
  browser = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const json = { accept: 'application/json' };
const site = () => {
  const name = uniq('site');
  return { name, slug: name };
};

describe('an unsafe API request authenticated by the session cookie', () => {
  it('is refused without a CSRF token, and nothing is written', async () => {
    const body = site();
    const res = await browser.request('POST', '/api/dcim/sites/', { body, csrf: false, headers: json });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'CSRF Failed: CSRF token missing.' });
    expect((await t.get(`/api/dcim/sites/?slug=${body.slug}`)).json().count).toBe(0);
  });

  it('is refused with a wrong token', async () => {
    const res = await browser.request('PATCH', '/api/dcim/sites/', {
      body: [],
      headers: { ...json, 'x-csrftoken': 'A'.repeat(32) },
    });
    expect(res.json()).toEqual({ detail: 'CSRF Failed: CSRF token incorrect.' });
  });

  it('passes with the cookie secret in X-CSRFToken, or the masked form of it', async () => {
    const plain = await browser.request('POST', '/api/dcim/sites/', { body: site(), headers: json });
    expect(plain.statusCode, plain.body).toBe(201);
    const masked = maskSecret(browser.csrf());
    expect(masked).toHaveLength(64);
    const res = await browser.request('POST', '/api/dcim/sites/', {
      body: site(),
      headers: { ...json, 'x-csrftoken': masked },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('is refused from a foreign Origin even with the right token; a trusted origin passes', async () => {
    const foreign = await browser.request('POST', '/api/dcim/sites/', {
      body: site(),
      headers: { ...json, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({
      detail: 'CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins.',
    });
    const trusted = await browser.request('POST', '/api/dcim/sites/', {
      body: site(),
      headers: { ...json, origin: 'https://trusted.example' },
    });
    expect(trusted.statusCode).toBe(201);
  });

  it('over HTTPS without Origin needs a Referer of this site', async () => {
    const https = { ...json, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'inv.example' };
    const none = await browser.request('POST', '/api/dcim/sites/', { body: site(), headers: https });
    expect(none.json()).toEqual({ detail: 'CSRF Failed: Referer checking failed - no Referer.' });
    const other = await browser.request('POST', '/api/dcim/sites/', {
      body: site(),
      headers: { ...https, referer: 'https://evil.example/x' },
    });
    expect(other.statusCode).toBe(403);
    const ours = await browser.request('POST', '/api/dcim/sites/', {
      body: site(),
      headers: { ...https, referer: 'https://inv.example/api/dcim/sites/' },
    });
    expect(ours.statusCode, ours.body).toBe(201);
  });

  it('safe methods need no token', async () => {
    expect((await browser.request('GET', '/api/dcim/sites/', { headers: json })).statusCode).toBe(200);
    expect((await browser.request('OPTIONS', '/api/dcim/sites/', { headers: json })).statusCode).toBe(200);
  });
});

describe('token authentication', () => {
  it('needs no CSRF token, even when the request also carries session and CSRF cookies', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: {
        authorization: `Token ${t.token}`,
        cookie: browser.cookieHeader(),
        'content-type': 'application/json',
        origin: 'https://evil.example',
      },
      payload: JSON.stringify(site()),
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('form bodies on the API', () => {
  it('are refused with 415 unless they carry a browsable-API _content', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: { authorization: `Token ${t.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x&slug=x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Unsupported media type "application/x-www-form-urlencoded" in request.' });
  });

  it('always need the CSRF token, and then write the JSON in _content', async () => {
    const body = site();
    const missing = await browser.request('POST', '/api/dcim/sites/', {
      form: { _content: JSON.stringify(body) },
      headers: json,
    });
    expect(missing.json()).toEqual({ detail: 'CSRF Failed: CSRF token missing.' });
    const ok = await browser.request('POST', '/api/dcim/sites/', {
      form: { _content: JSON.stringify(body), csrfmiddlewaretoken: maskSecret(browser.csrf()) },
      headers: json,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().slug).toBe(body.slug);
  });

  it('check the JSON in _content as the API checks a JSON body', async () => {
    const res = await browser.request('POST', '/api/dcim/sites/', {
      form: { _content: '{"name": ', csrfmiddlewaretoken: browser.csrf() },
      headers: json,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^JSON parse error - /);
  });
});
