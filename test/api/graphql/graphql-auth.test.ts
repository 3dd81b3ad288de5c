import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { signIn } from '../../helpers/web-session.js';
import { gql, gqlData, type Json } from './helpers.js';
import { makeDevice, makeInterface, makeSite, grant, makeUser, type TestUser } from '../../factories/index.js';

describe('GraphQL permissions at every level', () => {
  let t: TestApp;
  let user: TestUser;
  let site: Json;
  let device: Json;
  let shown: Json;
  let hidden: Json;

  beforeAll(async () => {
    t = await makeTestApp();
    user = await makeUser(t);
    site = await makeSite(t);
    device = await makeDevice(t, { site: site.id });
    shown = await makeInterface(t, device, { name: 'visible0' });
    hidden = await makeInterface(t, device, { name: 'secret0' });
    await t.post('/api/ipam/ip-addresses/', {
      address: '198.51.100.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: shown.id,
    });
    // devices, and only the interfaces named visible*; no permission on sites or addresses
    await grant(t, { object_types: ['dcim.device'], actions: ['view'], users: [user.id] });
    await grant(t, {
      object_types: ['dcim.interface'],
      actions: ['view'],
      users: [user.id],
      constraints: { name__startswith: 'visible' },
    });
  }, 60_000);
  afterAll(async () => t?.close());

  it('leaves out related objects and list members the user may not view', async () => {
    const data = await gqlData(
      t,
      `{ device(id: ${device.id}) { name site { name } interfaces { name ip_addresses { address } device { name } } } }`,
      undefined,
      user.token,
    );
    expect(data.device).toEqual({
      name: device.name,
      site: null,
      interfaces: [{ name: shown.name, ip_addresses: [], device: { name: device.name } }],
    });
  });

  it('gives empty lists and null objects for models the user may not view at all', async () => {
    const data = await gqlData(
      t,
      `{ site_list { id } site(id: ${site.id}) { id } interface(id: ${hidden.id}) { id } }`,
      undefined,
      user.token,
    );
    expect(data).toEqual({ site_list: [], site: null, interface: null });
  });

  it('shows everything to a superuser', async () => {
    const data = await gqlData(
      t,
      `{ device(id: ${device.id}) { site { name } interfaces { name ip_addresses { address } } } }`,
    );
    expect(data.device.site.name).toBe(site.name);
    expect(data.device.interfaces.map((i: Json) => i.name).sort()).toEqual([hidden.name, shown.name].sort());
  });

  it('refuses a bad token as REST does, and lets a read-only token query with POST', async () => {
    const bad = await t.request('POST', '/graphql/', {
      body: { query: '{ site_list { id } }' },
      token: '0'.repeat(40),
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toEqual({ detail: 'Invalid token' });
    const ro = await t.post('/api/users/tokens/', { user: user.id, write_enabled: false });
    const data = await gqlData(t, `{ device_list { name } }`, undefined, ro.json().key);
    expect(data.device_list).toEqual([{ name: device.name }]);
  });

  it("refuses an expired token and a client outside a token's allowed networks", async () => {
    const expired = await t.post('/api/users/tokens/', { user: user.id, expires: '2000-01-01T00:00:00Z' });
    expect((await gql(t, '{ site_list { id } }', undefined, expired.json().key)).status).toBe(403);
    const fenced = await t.post('/api/users/tokens/', { user: user.id, allowed_ips: ['10.99.0.0/16'] });
    const res = await t.request('POST', '/graphql/', {
      body: { query: '{ site_list { id } }' },
      token: fenced.json().key,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/Source IP/);
  });

  it('serves a signed-in browser, whose POST must carry the CSRF token', async () => {
    const browser = await signIn(t, t.username, t.password);
    const query = { query: `{ site(id: ${site.id}) { name } }` };
    const ok = await browser.request('POST', '/graphql/', { body: query, headers: { accept: 'application/json' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.site.name).toBe(site.name);
    const forged = await browser.request('POST', '/graphql/', {
      body: query,
      headers: { accept: 'application/json' },
      csrf: false,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().detail).toMatch(/CSRF/);
  });

  it('gives an anonymous client only the models exempt from view permissions', async () => {
    const data = await gqlData(t, '{ site_list { id } device_list { id } }', undefined, null);
    expect(data).toEqual({ site_list: [], device_list: [] });
  });
});

describe('GraphQL settings', () => {
  it('LOGIN_REQUIRED refuses anonymous clients; EXEMPT_VIEW_PERMISSIONS opens a model', async () => {
    const t = await makeTestApp({ LOGIN_REQUIRED: 'true' });
    try {
      const res = await t.request('POST', '/graphql/', { body: { query: '{ site_list { id } }' }, token: null });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    } finally {
      await t.close();
    }
    const open = await makeTestApp({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
    try {
      const site = await makeSite(open);
      const data = await gqlData(open, '{ site_list { id } device_list { id } }', undefined, null);
      expect(data).toEqual({ site_list: [{ id: String(site.id) }], device_list: [] });
    } finally {
      await open.close();
    }
  }, 60_000);

  it('MAINTENANCE_MODE still answers queries, which only read', async () => {
    const t = await makeTestApp({ MAINTENANCE_MODE: 'true' });
    try {
      expect(await gqlData(t, '{ site_list { id } }')).toEqual({ site_list: [] });
      expect((await t.post('/api/dcim/sites/', { name: 'x', slug: 'x' })).statusCode).toBe(503);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('GRAPHQL_ENABLED=false answers 404', async () => {
    const t = await makeTestApp({ GRAPHQL_ENABLED: 'false' });
    try {
      expect((await gql(t, '{ site_list { id } }')).status).toBe(404);
    } finally {
      await t.close();
    }
  }, 60_000);
});
