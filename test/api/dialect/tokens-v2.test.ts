/**
 * NetBox 4.5's v2 tokens (#20210), `enabled` (#20834) and `/api/authentication-check/` (#20936),
 * in both dialects: a v2 token's secret is returned once, by the write that creates it, kept only
 * as an HMAC, and accepted as `Bearer nbt_<key>.<secret>` or under `Token`.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeUser } from '../../factories/index.js';
import { signIn } from '../../helpers/web-session.js';
import { createResponseValidator, type ResponseValidator } from '../../helpers/openapi-validator.js';

const PEPPERS = JSON.stringify({ 1: 'pepper-one-'.repeat(5), 2: 'pepper-two-'.repeat(5) });
const V44 = { accept: 'application/json; version=4.4' };
/** a v1 token as NetBox 3.4 shows it (spec), in that order */
const V1_KEYS_34 = [
  'id',
  'url',
  'display',
  'user',
  'created',
  'expires',
  'last_used',
  'key',
  'write_enabled',
  'description',
  'allowed_ips',
  'api_dialect',
  'last_updated',
];

/** The app with every API answer checked against the OpenAPI document of its dialect, as the contract suite does. */
async function documented(app: TestApp): Promise<TestApp> {
  const validators = new Map<string, ResponseValidator>();
  for (const d of ['3.4', '4.4']) {
    const doc = await app.request('GET', '/api/schema/?format=json', {
      headers: { accept: `application/json; version=${d}` },
    });
    validators.set(d, createResponseValidator(doc.json()));
  }
  const request: TestApp['request'] = async (method, url, opts) => {
    const res = await app.request(method, url, opts);
    const dialect = opts?.headers?.accept?.includes('version=4.4') ? '4.4' : '3.4';
    const problems = validators.get(dialect)!.check(method, url, res.statusCode, res.body);
    expect(problems.join('\n'), `${method} ${url} answers as documented`).toBe('');
    return res;
  };
  return {
    ...app,
    request,
    get: (url, tok) => request('GET', url, { token: tok }),
    post: (url, body, tok) => request('POST', url, { body, token: tok }),
    patch: (url, body, tok) => request('PATCH', url, { body, token: tok }),
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await documented(await makeTestApp({ API_TOKEN_PEPPERS: PEPPERS }));
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;

async function create(body: Json, headers: Record<string, string> = {}): Promise<Json> {
  const res = await t.request('POST', '/api/users/tokens/', { body, headers });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** a request with only this Authorization header */
const asBearer = (credential: string, url = '/api/users/config/', keyword = 'Bearer') =>
  t.request('GET', url, { token: null, headers: { authorization: `${keyword} ${credential}` } });

const credentialOf = (body: Json) => `nbt_${String(body.key)}.${String(body.token)}`;

describe('a v2 token created in the 3.4 dialect', () => {
  it('shows 3.4 fields, its public key, and its secret in `token` once', async () => {
    const made = await create({ version: 2, description: 'v2 in 3.4' });
    expect(Object.keys(made)).toEqual([...V1_KEYS_34.slice(0, -2), 'token', ...V1_KEYS_34.slice(-2)]);
    expect(made.key).toMatch(/^[0-9a-zA-Z]{12}$/);
    expect(made.token).toMatch(/^[0-9a-zA-Z]{40}$/);
    expect(made.display).toBe(made.key);
    const again = (await t.get(`/api/users/tokens/${made.id}/`)).json();
    expect(Object.keys(again)).toEqual(V1_KEYS_34);
    expect(again.key).toBe(made.key);
  });

  it('authenticates as Bearer nbt_<key>.<secret>, and under Token too', async () => {
    const made = await create({ version: 2 });
    const bearer = await asBearer(credentialOf(made));
    expect(bearer.statusCode, bearer.body).toBe(200);
    expect((await asBearer(credentialOf(made), '/api/users/config/', 'Token')).statusCode).toBe(200);
    expect((await asBearer(credentialOf(made), '/api/users/config/', 'bearer')).statusCode).toBe(200);
  });

  it('refuses a wrong secret, and the public key alone, with 403', async () => {
    const made = await create({ version: 2 });
    const wrong = await asBearer(`nbt_${String(made.key)}.${'x'.repeat(40)}`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ detail: 'Invalid v2 token' });
    const unknown = await asBearer(`nbt_${'a'.repeat(12)}.${String(made.token)}`);
    expect(unknown.json()).toEqual({ detail: 'Invalid v2 token' });
    // the key names the token; it is no credential
    const keyOnly = await asBearer(String(made.key), '/api/users/config/', 'Token');
    expect(keyOnly.statusCode).toBe(403);
    expect(keyOnly.json()).toEqual({ detail: 'Invalid token' });
    const noDot = await asBearer(`nbt_${String(made.key)}`);
    expect(noDot.statusCode).toBe(403);
    expect(String(noDot.json().detail)).toMatch(/Could not parse key from v2 token/);
  });
});

describe('a v1 token in the 3.4 dialect', () => {
  it('is the default and looks exactly as before', async () => {
    const made = await create({ description: 'plain' });
    expect(Object.keys(made)).toEqual(V1_KEYS_34);
    expect(made.key).toMatch(/^[0-9a-f]{40}$/);
    expect((await t.get('/api/users/config/', String(made.key))).statusCode).toBe(200);
  });

  it('takes no key of 12 characters (that is a v2 key)', async () => {
    const res = await t.post('/api/users/tokens/', { key: 'abcdefABCDEF' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ key: ['Ensure this field has exactly 40 characters (hexadecimal).'] });
  });
});

describe('tokens in the 4.4 dialect', () => {
  it("shows a v2 token's version, enabled, key, pepper and its secret once", async () => {
    const made = await create({ version: 2 }, V44);
    expect(made).toMatchObject({ version: 2, enabled: true, pepper_id: 2, display: made.key });
    expect(made.token).toMatch(/^[0-9a-zA-Z]{40}$/);
    expect((await asBearer(credentialOf(made))).statusCode).toBe(200);
    const read = (await t.request('GET', `/api/users/tokens/${made.id}/`, { headers: V44 })).json();
    expect(read).toMatchObject({ version: 2, key: made.key, token: null, pepper_id: 2 });
    const brief = (await t.request('GET', `/api/users/tokens/?id=${made.id}&brief=1`, { headers: V44 })).json();
    expect(Object.keys(brief.results[0])).toEqual([
      'id',
      'url',
      'display',
      'version',
      'key',
      'enabled',
      'write_enabled',
      'description',
    ]);
  });

  it('keeps v1 the default: key and token hold the secret on creation, reads show no token', async () => {
    const made = await create({}, V44);
    expect(made).toMatchObject({ version: 1, enabled: true, pepper_id: null });
    expect(made.key).toMatch(/^[0-9a-f]{40}$/);
    expect(made.token).toBe(made.key);
    const read = (await t.request('GET', `/api/users/tokens/${made.id}/`, { headers: V44 })).json();
    expect(read.token).toBeNull();
  });

  it('stores no secret: only its HMAC, and the change log has neither', async () => {
    const made = await create({ version: 2 }, V44);
    const stored = await sql<Json>`select * from users_token where id = ${Number(made.id)}`.execute(t.db.kysely);
    expect(JSON.stringify(stored.rows[0])).not.toContain(String(made.token));
    expect(stored.rows[0]!.hmac_digest).toMatch(/^[0-9a-f]{64}$/);
    const changes = await t.get(
      `/api/extras/object-changes/?changed_object_type=users.token&changed_object_id=${made.id}`,
    );
    expect(changes.body).not.toContain(String(made.token));
    expect(changes.body).not.toContain('hmac');
  });

  it('takes a chosen secret, once: never again on update, and the version never changes', async () => {
    const secret = 'SecretChosenByTheClient0123456789abcdefg';
    const made = await create({ version: 2, token: secret }, V44);
    expect(made.token).toBe(secret);
    expect((await asBearer(`nbt_${String(made.key)}.${secret}`)).statusCode).toBe(200);
    const url = `/api/users/tokens/${made.id}/`;
    const retoken = await t.request('PATCH', url, { body: { token: 'T'.repeat(40) }, headers: V44 });
    expect(retoken.statusCode).toBe(400);
    expect(retoken.json()).toEqual({ token: ['Cannot assign a new plaintext value for an existing token.'] });
    const reversion = await t.request('PATCH', url, { body: { version: 1 }, headers: V44 });
    expect(reversion.json()).toEqual({ version: ['The version of a token cannot be changed once it is created.'] });
    // a v2 token read back and written whole (its key and a null token) is accepted; the key stays
    const read = (await t.request('GET', url, { headers: V44 })).json();
    const writable = ['version', 'key', 'expires', 'enabled', 'write_enabled', 'allowed_ips', 'token', 'api_dialect'];
    const body = Object.fromEntries(writable.map((k) => [k, read[k]]));
    const put = await t.request('PUT', url, {
      body: { ...body, user: read.user.id, description: 'put' },
      headers: V44,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ key: made.key, description: 'put', token: null });
  });
});

describe('enabled', () => {
  it('a disabled token, v1 or v2, is refused with 403 until enabled again', async () => {
    for (const version of [1, 2]) {
      const made = await create({ version }, V44);
      const credential = version === 2 ? credentialOf(made) : String(made.key);
      const keyword = version === 2 ? 'Bearer' : 'Token';
      // a 3.4 client may switch it off too (writes take 4.4's fields in every dialect)
      expect((await t.patch(`/api/users/tokens/${made.id}/`, { enabled: false })).statusCode).toBe(200);
      const refused = await asBearer(credential, '/api/users/config/', keyword);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'Token disabled' });
      expect((await t.patch(`/api/users/tokens/${made.id}/`, { enabled: true })).statusCode).toBe(200);
      expect((await asBearer(credential, '/api/users/config/', keyword)).statusCode).toBe(200);
    }
  });

  it('an expired v2 token is refused as a v1 token is', async () => {
    const made = await create({ version: 2 });
    await sql`update users_token set expires = now() - interval '1 minute' where id = ${Number(made.id)}`.execute(
      t.db.kysely,
    );
    const res = await asBearer(credentialOf(made));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Token expired' });
  });
});

describe('POST /api/users/tokens/provision/', () => {
  it('makes a v2 token on request, whose credential pynetbox 7.7 builds from version, key and token', async () => {
    const u = await makeUser(t);
    const res = await t.request('POST', '/api/users/tokens/provision/', {
      token: null,
      headers: V44,
      body: { username: u.username, password: u.password, version: 2 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({ version: 2, user: { id: u.id } });
    const check = await asBearer(credentialOf(made), '/api/authentication-check/');
    expect(check.json()).toMatchObject({ id: u.id, username: u.username });
  });

  it('makes a v1 token by default, its key the credential (pynetbox before 7.7 reads key)', async () => {
    const u = await makeUser(t);
    for (const headers of [{}, V44]) {
      const res = await t.request('POST', '/api/users/tokens/provision/', {
        token: null,
        headers,
        body: { username: u.username, password: u.password },
      });
      const made = res.json();
      expect(made.key).toMatch(/^[0-9a-f]{40}$/);
      expect((await t.get('/api/users/config/', String(made.key))).statusCode).toBe(200);
    }
  });
});

describe('GET /api/authentication-check/', () => {
  it('answers 403 without credentials', async () => {
    const res = await t.get('/api/authentication-check/', null);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it("returns the token's user, in the request's dialect, needing no permission on users", async () => {
    const u = await makeUser(t);
    const v34 = (await t.get('/api/authentication-check/', u.token)).json();
    expect(v34).toMatchObject({ id: u.id, username: u.username });
    expect(v34).not.toHaveProperty('display_url');
    expect(v34).not.toHaveProperty('password');
    const v44 = await t.request('GET', '/api/authentication-check/', { token: u.token, headers: V44 });
    expect(v44.json()).toMatchObject({ id: u.id, display_url: expect.stringContaining(`/users/users/${u.id}/`) });
  });

  it('answers a signed-in browser too', async () => {
    const browser = await signIn(t, t.username, t.password);
    const res = await browser.request('GET', '/api/authentication-check/', { headers: { accept: 'application/json' } });
    expect(res.json()).toMatchObject({ username: t.username });
  });
});

describe('/user/api-tokens/', () => {
  it('creates a v2 token, shows its credential once, then only its public key', async () => {
    const u = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    const res = await browser.request('POST', '/user/api-tokens/', {
      form: { csrfmiddlewaretoken: browser.csrf(), description: 'v2 page', write_enabled: 'on', v2: 'on' },
    });
    expect(res.statusCode).toBe(201);
    const credential = res.body.match(/<code class="key">(nbt_\w{12}\.\w{40})<\/code>/)![1]!;
    expect((await asBearer(credential)).statusCode).toBe(200);
    const page = await browser.request('GET', '/user/api-tokens/');
    const secret = credential.split('.')[1]!;
    expect(page.body).toContain(credential.split('.')[0]!);
    expect(page.body).not.toContain(secret);
  });
});

describe('without API_TOKEN_PEPPERS', () => {
  it('refuses to create a v2 token with a 400, and still makes v1 tokens', async () => {
    const bare = await makeTestApp();
    try {
      const res = await bare.post('/api/users/tokens/', { version: 2 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ non_field_errors: ['Unable to save v2 tokens: API_TOKEN_PEPPERS is not defined.'] });
      expect((await bare.post('/api/users/tokens/', {})).statusCode).toBe(201);
    } finally {
      await bare.close();
    }
  });
});
