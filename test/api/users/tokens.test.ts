import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeToken } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const DENIED = { detail: 'You do not have permission to perform this action.' };

async function lastUsed(id: number): Promise<string | null> {
  const res = await sql<{
    last_used: Date | string | null;
  }>`select last_used from users_token where id = ${id}`.execute(t.db.kysely);
  const v = res.rows[0]!.last_used;
  return v === null ? null : new Date(v).toISOString();
}

describe('POST /api/users/tokens/', () => {
  it('generates a 40-hex key when none is given, owned by the requester', async () => {
    const res = await t.post('/api/users/tokens/', { description: 'ci' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.key).toMatch(/^[0-9a-f]{40}$/);
    expect(body).toMatchObject({
      display: body.key,
      write_enabled: true,
      expires: null,
      last_used: null,
      description: 'ci',
      allowed_ips: [],
    });
    expect(body.user).toEqual({
      id: expect.any(Number),
      url: expect.stringMatching(/\/api\/users\/users\/\d+\/$/),
      display: expect.any(String),
      username: expect.any(String),
    });
    expect(body.created).toMatch(/Z$/);
  });

  it('accepts a supplied key (restoring a deleted token), which then authenticates', async () => {
    const key = 'abcdef0123456789abcdef0123456789abcdef01';
    const created = await makeToken(t, { key });
    expect(created.key).toBe(key);
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    expect((await t.del(`/api/users/tokens/${created.id}/`)).statusCode).toBe(204);
    expect((await t.get('/api/dcim/sites/', key)).json()).toEqual({ detail: 'Invalid token' });
    const restored = await makeToken(t, { key });
    expect(restored.key).toBe(key);
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
  });

  it('rejects a key that is not 40 characters, and a duplicate key', async () => {
    expect((await t.post('/api/users/tokens/', { key: 'abc' })).statusCode).toBe(400);
    const { key } = await makeToken(t);
    const dup = await t.post('/api/users/tokens/', { key });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toHaveProperty('key');
  });

  it('stores expires and allowed_ips, and validates allowed_ips', async () => {
    const expires = '2099-01-01T00:00:00Z';
    const res = await t.post('/api/users/tokens/', { expires, allowed_ips: ['10.0.0.0/8', '2001:db8::/32'] });
    expect(res.statusCode).toBe(201);
    expect(new Date(res.json().expires).toISOString()).toBe('2099-01-01T00:00:00.000Z');
    expect(res.json().allowed_ips).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    const bad = await t.post('/api/users/tokens/', { allowed_ips: ['not-an-ip'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('allowed_ips');
  });
});

describe('GET /api/users/tokens/ filters', () => {
  it('filters by key, exactly and partially (retrieval allowed)', async () => {
    const { id, key } = await makeToken(t);
    expect((await t.get(`/api/users/tokens/?key=${key}`)).json().results.map((r: { id: number }) => r.id)).toEqual([
      id,
    ]);
    expect(
      (await t.get(`/api/users/tokens/?key__isw=${key.slice(0, 12)}`)).json().results.map((r: { id: number }) => r.id),
    ).toEqual([id]);
    expect(
      (await t.get(`/api/users/tokens/?key__n=${key}`)).json().results.map((r: { id: number }) => r.id),
    ).not.toContain(id);
  });
});

describe('read-only tokens (write_enabled false)', () => {
  it('may read but not write', async () => {
    const { id, key } = await makeToken(t, { write_enabled: false });
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    expect((await t.request('OPTIONS', '/api/dcim/sites/', { token: key })).statusCode).toBe(200);
    const post = await t.post('/api/dcim/sites/', { name: 'ro-site', slug: 'ro-site' }, key);
    expect(post.statusCode).toBe(403);
    expect(post.json()).toEqual(DENIED);
    const patch = await t.patch(`/api/users/tokens/${id}/`, { write_enabled: true }, key);
    expect(patch.statusCode).toBe(403);
    expect(patch.json()).toEqual(DENIED);
    const del = await t.del(`/api/users/tokens/${id}/`, undefined, key);
    expect(del.statusCode).toBe(403);
    expect(del.json()).toEqual(DENIED);
    expect((await t.get('/api/dcim/sites/?slug=ro-site')).json().count).toBe(0);
    expect((await t.get(`/api/users/tokens/${id}/`)).json().write_enabled).toBe(false);
  });

  it('shows no actions in OPTIONS, even for a superuser (NetBox checks the token write flag there too)', async () => {
    const { key } = await makeToken(t, { write_enabled: false });
    for (const url of ['/api/dcim/sites/', '/api/dcim/sites/1/', '/api/ipam/prefixes/']) {
      const ro = await t.request('OPTIONS', url, { token: key });
      expect(ro.statusCode, url).toBe(200);
      expect(ro.json(), url).not.toHaveProperty('actions');
      expect(ro.json().name, url).toEqual(expect.any(String));
    }
    // the same user's writing token sees them
    const rw = await t.request('OPTIONS', '/api/dcim/sites/');
    expect(Object.keys(rw.json().actions).sort()).toEqual(['POST', 'PUT']);
    expect(rw.json().actions.POST.status.choices).toEqual(
      expect.arrayContaining([{ value: 'active', display_name: 'Active' }]),
    );
  });
});

describe('token errors (all 403, never 401)', () => {
  it('expired token', async () => {
    const { key } = await makeToken(t, { expires: '2001-01-01T00:00:00Z' });
    const res = await t.get('/api/dcim/sites/', key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Token expired' });
  });

  it('unknown key', async () => {
    const res = await t.get('/api/dcim/sites/', '0123456789abcdef0123456789abcdef01234567');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Invalid token' });
  });

  it('malformed headers get NetBox messages', async () => {
    const bare = await t.request('GET', '/api/dcim/sites/', { token: null, headers: { authorization: 'Token' } });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toEqual({ detail: 'Invalid token header. No credentials provided.' });
    const spaced = await t.request('GET', '/api/dcim/sites/', { token: null, headers: { authorization: 'Token a b' } });
    expect(spaced.statusCode).toBe(403);
    expect(spaced.json()).toEqual({ detail: 'Invalid token header. Token string should not contain spaces.' });
  });

  it('the keyword is case-insensitive', async () => {
    const res = await t.request('GET', '/api/dcim/sites/', {
      token: null,
      headers: { authorization: `token ${t.token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a Bearer header is ignored: the request is anonymous', async () => {
    const res = await t.request('GET', '/api/dcim/sites/', {
      token: null,
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('no token at all on a list', async () => {
    const res = await t.get('/api/dcim/sites/', null);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const post = await t.post('/api/dcim/sites/', { name: 'anon', slug: 'anon' }, null);
    expect(post.statusCode).toBe(403);
    expect(post.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});

describe('allowed_ips', () => {
  const inject = (key: string, opts: { headers?: Record<string, string>; remoteAddress?: string } = {}) =>
    t.app.inject({
      method: 'GET',
      url: '/api/dcim/sites/',
      headers: { authorization: `Token ${key}`, ...opts.headers },
      remoteAddress: opts.remoteAddress,
    });

  it('refuses a client outside the networks', async () => {
    const { key } = await makeToken(t, { allowed_ips: ['10.0.0.0/8'] });
    const res = await inject(key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.' });
  });

  it('uses X-Real-IP first, then the first X-Forwarded-For entry, then the socket address', async () => {
    const { key } = await makeToken(t, { allowed_ips: ['10.0.0.0/8', '192.0.2.7'] });
    expect((await inject(key, { headers: { 'x-real-ip': '10.1.2.3' } })).statusCode).toBe(200);
    expect((await inject(key, { headers: { 'x-forwarded-for': '10.9.9.9, 203.0.113.1' } })).statusCode).toBe(200);
    expect((await inject(key, { remoteAddress: '192.0.2.7' })).statusCode).toBe(200);
    // X-Real-IP wins over X-Forwarded-For
    const realOutside = await inject(key, { headers: { 'x-real-ip': '203.0.113.5', 'x-forwarded-for': '10.1.1.1' } });
    expect(realOutside.json()).toEqual({
      detail: 'Source IP 203.0.113.5 is not permitted to authenticate using this token.',
    });
    // only the first X-Forwarded-For entry counts
    const fwdSecond = await inject(key, { headers: { 'x-forwarded-for': '203.0.113.9, 10.1.1.1' } });
    expect(fwdSecond.json()).toEqual({
      detail: 'Source IP 203.0.113.9 is not permitted to authenticate using this token.',
    });
    // a peer outside TRUSTED_PROXIES (loopback by default) cannot claim another address by header
    expect(
      (await inject(key, { headers: { 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '192.0.2.7' })).statusCode,
    ).toBe(200);
    // a single address is a /32
    expect((await inject(key, { remoteAddress: '192.0.2.8' })).statusCode).toBe(403);
  });

  it('matches IPv6 clients against IPv6 networks', async () => {
    const { key } = await makeToken(t, { allowed_ips: ['2001:db8::/32'] });
    expect((await inject(key, { headers: { 'x-real-ip': '2001:db8::1' } })).statusCode).toBe(200);
    expect((await inject(key, { headers: { 'x-real-ip': '2001:db9::1' } })).statusCode).toBe(403);
    expect((await inject(key)).statusCode).toBe(403);
  });
});

describe('last_used', () => {
  it('is set on first use, not bumped again within 60 s, and mirrored as last_updated', async () => {
    const { id, key } = await makeToken(t);
    expect(await lastUsed(id)).toBeNull();
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    const first = await lastUsed(id);
    expect(first).not.toBeNull();
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    expect(await lastUsed(id)).toBe(first);

    const body = (await t.get(`/api/users/tokens/${id}/`)).json();
    expect(new Date(body.last_used).toISOString()).toBe(first);
    expect(body.last_updated).toBe(body.last_used);
  });

  it('is bumped once the previous use is older than 60 s', async () => {
    const { id, key } = await makeToken(t);
    await sql`update users_token set last_used = now() - interval '61 seconds' where id = ${id}`.execute(t.db.kysely);
    const old = await lastUsed(id);
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    const now = await lastUsed(id);
    expect(Date.parse(now!) - Date.parse(old!)).toBeGreaterThanOrEqual(60_000);
  });

  it('is recorded even when the token is expired (NetBox checks expiry after)', async () => {
    const { id, key } = await makeToken(t, { expires: '2001-01-01T00:00:00Z' });
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(403);
    expect(await lastUsed(id)).not.toBeNull();
  });

  it('is read-only through the API', async () => {
    const { id } = await makeToken(t);
    const res = await t.patch(`/api/users/tokens/${id}/`, { last_used: '2020-01-01T00:00:00Z', description: 'x' });
    expect(res.statusCode).toBe(200);
    expect(res.json().last_used).toBeNull();
  });
});
