/** POST /api/users/tokens/provision/ (spec: Authentication 12; reference 7.3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const provision = (body: unknown, headers: Record<string, string> = {}) =>
  t.request('POST', '/api/users/tokens/provision/', { body, token: null, headers });

describe('POST /api/users/tokens/provision/', () => {
  it('creates a write-enabled token with a generated key for the user', async () => {
    const u = await makeUser(t);
    const res = await provision({ username: u.username, password: u.password });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.key).toMatch(/^[0-9a-f]{40}$/);
    expect(body).toMatchObject({
      write_enabled: true,
      expires: null,
      last_used: null,
      allowed_ips: [],
      display: body.key,
    });
    expect(body.user).toEqual({
      id: u.id,
      url: expect.stringMatching(new RegExp(`/api/users/users/${u.id}/$`)),
      display: u.username,
      username: u.username,
    });
    expect(res.headers.location).toMatch(new RegExp(`/api/users/tokens/${body.id}/$`));
    // the token is usable for writes at once
    const own = await t.post('/api/users/tokens/', { description: 'made with a provisioned token' }, body.key);
    expect(own.statusCode).toBe(201);
  });

  it('needs no token and ignores one that is sent', async () => {
    const u = await makeUser(t);
    const res = await provision(
      { username: u.username, password: u.password },
      { authorization: 'Token 0123456789abcdef0123456789abcdef01234567' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().user.id).toBe(u.id);
  });

  it('refuses missing fields', async () => {
    const u = await makeUser(t);
    for (const body of [{}, { username: u.username }, { password: u.password }, { username: '', password: '' }]) {
      const res = await provision(body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Username and password must be provided to provision a token.' });
    }
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    const u = await makeUser(t);
    for (const body of [
      { username: u.username, password: 'wrong' },
      { username: 'nobody-here', password: 'x' },
    ]) {
      const res = await provision(body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Invalid username/password' });
    }
    expect((await t.get(`/api/users/tokens/?user_id=${u.id}`)).json().count).toBe(1);
  });

  it('takes the optional 3.7 fields', async () => {
    const u = await makeUser(t);
    const res = await provision({
      username: u.username,
      password: u.password,
      write_enabled: false,
      description: 'ansible',
      expires: '2099-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ write_enabled: false, description: 'ansible' });
  });

  it('cannot be used to provision a token for another user by sending user', async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const res = await provision({ username: u.username, password: u.password, user: other.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.id).toBe(u.id);
  });

  it('answers OPTIONS', async () => {
    const res = await t.request('OPTIONS', '/api/users/tokens/provision/', { token: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers.allow).toBe('POST, OPTIONS');
  });

  it('answers 405 to other methods', async () => {
    const res = await t.request('GET', '/api/users/tokens/provision/', { token: null });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ detail: 'Method "GET" not allowed.' });
  });
});
