/** Browser sign-in and sign-out: Django's form conventions, server-side sessions, the growing wait. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { newBrowser, signIn } from '../helpers/web-session.js';
import { makeUser } from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ LOGIN_TIMEOUT: '3600' });
});
afterAll(async () => t.close());

const WRONG = 'The username or password is not correct.';
const setCookies = (res: { headers: Record<string, unknown> }) => {
  const raw = res.headers['set-cookie'];
  return (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[];
};

describe('GET /login/', () => {
  it('shows the form with Django field names and sets the csrftoken cookie', async () => {
    const browser = newBrowser(t);
    const res = await browser.request('GET', '/login/?next=/api/dcim/sites/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    for (const field of ['username', 'password', 'csrfmiddlewaretoken', 'next'])
      expect(res.body).toContain(`name="${field}"`);
    expect(res.body).toContain('value="/api/dcim/sites/"');
    expect(browser.csrf()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(setCookies(res)[0]).toMatch(/^csrftoken=\w{32}; Path=\/; Max-Age=31449600; SameSite=Lax$/);
  });
});

describe('POST /login/', () => {
  it('signs in: 302 to next with an HttpOnly, SameSite=Lax session cookie lasting LOGIN_TIMEOUT, and a new CSRF secret', async () => {
    const browser = newBrowser(t);
    await browser.request('GET', '/login/');
    const before = browser.csrf();
    const res = await browser.request('POST', '/login/', {
      form: {
        username: t.username,
        password: t.password,
        csrfmiddlewaretoken: before,
        next: '/api/dcim/sites/?status=active',
      },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/api/dcim/sites/?status=active');
    const session = setCookies(res).find((c) => c.startsWith('sessionid='))!;
    expect(session).toMatch(/^sessionid=[\w-]{43}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax$/);
    expect(browser.csrf()).not.toBe(before);
    const me = await browser.request('GET', '/api/users/config/', { headers: { accept: 'application/json' } });
    expect(me.statusCode).toBe(200);
  });

  it('stores only a hash of the session key', async () => {
    const browser = await signIn(t, t.username, t.password);
    const key = browser.cookies.get('sessionid')!;
    const rows = await sql<{ key_hash: string }>`select key_hash from users_session`.execute(t.db.kysely);
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(rows.rows.some((r) => r.key_hash.includes(key))).toBe(false);
  });

  it('answers a wrong password and an unknown user with the same page and message', async () => {
    const u = await makeUser(t);
    const answers = [];
    for (const [username, password] of [
      [u.username, 'wrong'],
      ['nobody-here', 'wrong'],
    ]) {
      const browser = newBrowser(t);
      await browser.request('GET', '/login/');
      const res = await browser.request('POST', '/login/', {
        form: { username: username!, password: password!, csrfmiddlewaretoken: browser.csrf(), next: '/' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(WRONG);
      expect(browser.cookies.has('sessionid')).toBe(false);
      answers.push(res.body.replace(/value="[^"]*"/g, ''));
    }
    expect(answers[0]).toBe(answers[1]);
  });

  it('refuses an inactive user with the same message', async () => {
    const u = await makeUser(t);
    await sql`update users_user set is_active = false where id = ${u.id}`.execute(t.db.kysely);
    const browser = newBrowser(t);
    await browser.request('GET', '/login/');
    const res = await browser.request('POST', '/login/', {
      form: { username: u.username, password: u.password, csrfmiddlewaretoken: browser.csrf() },
    });
    expect(res.body).toContain(WRONG);
  });

  it('needs the CSRF token', async () => {
    const browser = newBrowser(t);
    const noCookie = await browser.request('POST', '/login/', { form: { username: t.username, password: t.password } });
    expect(noCookie.statusCode).toBe(403);
    expect(noCookie.json()).toEqual({ detail: 'CSRF Failed: CSRF cookie not set.' });
    await browser.request('GET', '/login/');
    const missing = await browser.request('POST', '/login/', { form: { username: t.username, password: t.password } });
    expect(missing.json()).toEqual({ detail: 'CSRF Failed: CSRF token missing.' });
    const wrong = await browser.request('POST', '/login/', {
      form: { username: t.username, password: t.password, csrfmiddlewaretoken: 'x'.repeat(32) },
    });
    expect(wrong.json()).toEqual({ detail: 'CSRF Failed: CSRF token incorrect.' });
  });

  it('never redirects off the site', async () => {
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const browser = newBrowser(t);
      await browser.request('GET', '/login/');
      const res = await browser.request('POST', '/login/', {
        form: { username: t.username, password: t.password, csrfmiddlewaretoken: browser.csrf(), next },
      });
      expect(res.headers.location, next).toBe('/');
    }
  });

  it('marks the cookies Secure when the request came over HTTPS through a trusted proxy', async () => {
    const browser = newBrowser(t);
    const https = {
      'x-forwarded-proto': 'https',
      origin: 'https://inventory.example',
      'x-forwarded-host': 'inventory.example',
    };
    const page = await browser.request('GET', '/login/', { headers: https });
    expect(setCookies(page)[0]).toContain('; Secure');
    const res = await browser.request('POST', '/login/', {
      headers: https,
      form: { username: t.username, password: t.password, csrfmiddlewaretoken: browser.csrf() },
    });
    expect(res.statusCode).toBe(302);
    expect(setCookies(res).find((c) => c.startsWith('sessionid='))).toContain('; Secure');
  });
});

describe('the growing wait after failed sign-ins', () => {
  const attempt = async (username: string, password: string, ip: string) => {
    const browser = newBrowser(t);
    await browser.request('GET', '/login/');
    return browser.request('POST', '/login/', {
      headers: { 'x-forwarded-for': ip },
      form: { username, password, csrfmiddlewaretoken: browser.csrf() },
    });
  };

  it('lets three mistakes pass, then refuses attempts for that user from that address for a while, even the right password', async () => {
    const u = await makeUser(t);
    for (let i = 0; i < 3; i++) expect((await attempt(u.username, 'bad', '203.0.113.5')).statusCode).toBe(200);
    const throttled = await attempt(u.username, u.password, '203.0.113.5');
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(throttled.body).toContain('Too many failed attempts');
    // the same user from elsewhere, and another user from the same address, are not held up
    expect((await attempt(u.username, u.password, '203.0.113.6')).statusCode).toBe(302);
    const other = await makeUser(t);
    expect((await attempt(other.username, other.password, '203.0.113.5')).statusCode).toBe(302);
  });

  it('counts unknown usernames like known ones, and a success clears the count', async () => {
    for (let i = 0; i < 3; i++) await attempt('ghost-user', 'bad', '203.0.113.9');
    expect((await attempt('ghost-user', 'bad', '203.0.113.9')).statusCode).toBe(429);
    const u = await makeUser(t);
    for (let i = 0; i < 2; i++) await attempt(u.username, 'bad', '203.0.113.10');
    expect((await attempt(u.username, u.password, '203.0.113.10')).statusCode).toBe(302);
    const left = await sql`select 1 from users_signin_failure where username = ${u.username}`.execute(t.db.kysely);
    expect(left.rows).toHaveLength(0);
  });
});

describe('sessions', () => {
  it('a session row is honoured by every process on the database, and sign-out ends it for all of them', async () => {
    const browser = await signIn(t, t.username, t.password);
    const other = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db: t.db });
    const cookie = browser.cookieHeader();
    const viaOther = () =>
      other.inject({ method: 'GET', url: '/api/users/config/', headers: { cookie, accept: 'application/json' } });
    expect((await viaOther()).statusCode).toBe(200);
    const out = await browser.request('POST', '/logout/', { form: { csrfmiddlewaretoken: browser.csrf() } });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/login/');
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect((await viaOther()).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/config/', headers: { cookie } })).statusCode).toBe(
      403,
    );
    await other.close();
  });

  it('signs out on GET /logout/ as NetBox 3.4 does', async () => {
    const browser = await signIn(t, t.username, t.password);
    const cookie = browser.cookieHeader();
    expect((await browser.request('GET', '/logout/')).statusCode).toBe(302);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/config/', headers: { cookie } })).statusCode).toBe(
      403,
    );
  });

  it('an expired session or an inactive user authenticates nobody', async () => {
    const u = await makeUser(t);
    const expired = await signIn(t, u.username, u.password);
    await sql`update users_session set expires = now() - interval '1 second' where user_id = ${u.id}`.execute(
      t.db.kysely,
    );
    expect((await expired.request('GET', '/api/users/config/')).statusCode).toBe(403);
    const inactive = await signIn(t, u.username, u.password);
    await sql`update users_user set is_active = false where id = ${u.id}`.execute(t.db.kysely);
    expect((await inactive.request('GET', '/api/users/config/')).statusCode).toBe(403);
  });

  it('a cookie that is not a session key is ignored, not an error', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/users/config/' });
    expect(anonymous.statusCode).toBe(403);
    for (const cookie of [
      'sessionid=short',
      `sessionid=${'A'.repeat(43)}`,
      'sessionid="%zz"; csrftoken=',
      'sessionid',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/users/config/', headers: { cookie } });
      expect(res.statusCode, cookie).toBe(403);
      expect(res.json()).toEqual(anonymous.json());
    }
  });
});
