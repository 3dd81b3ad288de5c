/** LOGIN_REQUIRED=true: every API view except the root and token provisioning needs a user (reference 7.2). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ LOGIN_REQUIRED: 'true', EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
});
afterAll(async () => t.close());

const NO_CREDENTIALS = { detail: 'Authentication credentials were not provided.' };

describe('LOGIN_REQUIRED=true', () => {
  it('GET /api/ answers without a token', async () => {
    const res = await t.get('/api/', null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('dcim');
  });

  it('exempt views need a token after all', async () => {
    const anon = await t.get('/api/dcim/sites/', null);
    expect(anon.statusCode).toBe(403);
    expect(anon.json()).toEqual(NO_CREDENTIALS);
    const u = await makeUser(t);
    expect((await t.get('/api/dcim/sites/', u.token)).statusCode).toBe(200);
  });

  it('other views and app roots need a token', async () => {
    for (const path of ['/api/tenancy/tenants/', '/api/dcim/', '/api/users/config/']) {
      const res = await t.get(path, null);
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toEqual(NO_CREDENTIALS);
    }
  });

  it('token provisioning works without a token', async () => {
    const u = await makeUser(t);
    const res = await t.request('POST', '/api/users/tokens/provision/', {
      body: { username: u.username, password: u.password },
      token: null,
    });
    expect(res.statusCode).toBe(201);
    expect((await t.get('/api/dcim/sites/', res.json().key)).statusCode).toBe(200);
  });

  it('bad tokens still get their own messages', async () => {
    const res = await t.get('/api/dcim/sites/', '0123456789abcdef0123456789abcdef01234567');
    expect(res.json()).toEqual({ detail: 'Invalid token' });
  });
});
