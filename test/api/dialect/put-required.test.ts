/**
 * A PUT replaces the whole object (DRF, partial=False), so it must carry every field NetBox's
 * serializer requires, `FieldDef.requiredIn` included: a device's role (3.4 `device_role`, 4.4
 * `role`, either name in either dialect), a token's and a bookmark's `user`, an event rule's
 * `action_object_type`. A create still fills these in (docs/api-differences.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, makeDevice, makeSite, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
const put44 = (url: string, body: unknown) => t.request('PUT', url, { body, headers: V44 });
const REQUIRED = ['This field is required.'];

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/** what a PUT of the device sends, from its own representation */
const deviceBody = (d: Json): Json => ({
  name: d.name,
  device_type: d.device_type.id,
  site: d.site.id,
  status: 'active',
});

describe('device role', () => {
  it('3.4: a PUT without device_role or role is refused and changes nothing', async () => {
    const d = await makeDevice(t);
    const res = await t.put(`/api/dcim/devices/${d.id}/`, { ...deviceBody(d), status: 'planned' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ device_role: REQUIRED });
    expect((await t.get(`/api/dcim/devices/${d.id}/`)).json().status.value).toBe('active');
  });

  it('3.4 and 4.4: either name of the role will do', async () => {
    const d = await makeDevice(t);
    const role = d.role.id as number;
    for (const [put, body] of [
      [t.put, { device_role: role }],
      [t.put, { role }],
      [put44, { role }],
      [put44, { device_role: role }],
    ] as const) {
      const res = await put(`/api/dcim/devices/${d.id}/`, { ...deviceBody(d), ...body });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().role.id).toBe(role);
    }
  });

  it('4.4: names the field role', async () => {
    const d = await makeDevice(t);
    const res = await put44(`/api/dcim/devices/${d.id}/`, deviceBody(d));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ role: REQUIRED });
  });

  it('a PATCH without it keeps the role', async () => {
    const d = await makeDevice(t);
    const res = await t.patch(`/api/dcim/devices/${d.id}/`, { status: 'planned' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().role.id).toBe(d.role.id);
  });
});

describe('user of a token and a bookmark', () => {
  it('a create without user takes the requesting user; a PUT without it is refused', async () => {
    const token = await t.post('/api/users/tokens/', { description: uniq('tok') });
    expect(token.statusCode, token.body).toBe(201);
    const owner = token.json().user.id as number;
    const path = `/api/users/tokens/${token.json().id}/`;
    const refused = await t.put(path, { description: 'replaced' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({ user: REQUIRED });
    expect((await t.get(path)).json().description).not.toBe('replaced');
    const ok = await t.put(path, { description: 'replaced', user: owner });
    expect(ok.statusCode, ok.body).toBe(200);

    const site = await makeSite(t);
    const mark = await t.post('/api/extras/bookmarks/', { object_type: 'dcim.site', object_id: site.id });
    expect(mark.statusCode, mark.body).toBe(201);
    const put = await t.put(`/api/extras/bookmarks/${mark.json().id}/`, {
      object_type: 'dcim.site',
      object_id: site.id,
    });
    expect(put.statusCode, put.body).toBe(400);
    expect(put.json()).toEqual({ user: REQUIRED });
  });
});

describe('event rule action_object_type', () => {
  it('is required on PUT in both dialects, defaulted on create', async () => {
    const hook = await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: 'http://127.0.0.1:9/' });
    const base = {
      name: uniq('rule'),
      content_types: ['dcim.site'],
      type_create: true,
      action_object_id: hook.json().id,
    };
    const rule = await t.post('/api/extras/event-rules/', base);
    expect(rule.statusCode, rule.body).toBe(201);
    expect(rule.json().action_object_type).toBe('extras.webhook');
    const path = `/api/extras/event-rules/${rule.json().id}/`;
    for (const put of [t.put, put44]) {
      const res = await put(path, base);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ action_object_type: REQUIRED });
    }
    const ok = await t.put(path, { ...base, action_object_type: 'extras.webhook' });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
