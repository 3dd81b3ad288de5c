/**
 * Webhooks in NetBox 3.4's shape (their own triggers) and 3.7's (triggers in event rules), kept
 * consistent; who may write them; the content-type filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { uniq, grant, makeUser } from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const rulesOf = async (webhookId: number) =>
  (await t.get(`/api/extras/event-rules/?action_object_id=${webhookId}`)).json().results as Array<
    Record<string, unknown>
  >;

describe("a NetBox 3.4 webhook (the Ansible netbox_webhook module's shape)", () => {
  it('creates its own event rule from its triggers, and reads them back from it', async () => {
    const name = uniq('hook');
    const res = await t.post('/api/extras/webhooks/', {
      name,
      payload_url: 'http://127.0.0.1:9/x',
      content_types: ['dcim.site', 'ipam.prefix'],
      type_create: true,
      type_delete: true,
      enabled: true,
      conditions: { and: [{ attr: 'status.value', value: 'active' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json();
    expect(hook).toMatchObject({
      content_types: ['dcim.site', 'ipam.prefix'],
      type_create: true,
      type_update: false,
      type_delete: true,
      enabled: true,
    });
    const [rule] = await rulesOf(hook.id);
    expect(rule).toMatchObject({
      name,
      content_types: ['dcim.site', 'ipam.prefix'],
      type_create: true,
      type_delete: true,
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
    });
    expect(rule!.conditions).toEqual({ and: [{ attr: 'status.value', value: 'active' }] });
  });

  it('keeps both views consistent: a webhook PATCH updates the rule, a rule PATCH shows on the webhook', async () => {
    const hook = (
      await t.post('/api/extras/webhooks/', {
        name: uniq('hook'),
        payload_url: 'http://127.0.0.1:9/x',
        content_types: ['dcim.site'],
        type_create: true,
      })
    ).json();
    const patched = await t.patch(`/api/extras/webhooks/${hook.id}/`, { enabled: false, type_update: true });
    expect(patched.json()).toMatchObject({ enabled: false, type_update: true, type_create: true });
    const [rule] = await rulesOf(hook.id);
    expect(rule).toMatchObject({ enabled: false, type_update: true });
    await t.patch(`/api/extras/event-rules/${rule!.id}/`, { content_types: ['dcim.device'], enabled: true });
    expect((await t.get(`/api/extras/webhooks/${hook.id}/`)).json()).toMatchObject({
      content_types: ['dcim.device'],
      enabled: true,
    });
    expect(await rulesOf(hook.id)).toHaveLength(1);
    // and its content-type filters match what it shows, not what was last written to it
    const found = async (q: string) =>
      ((await t.get(`/api/extras/webhooks/?id=${hook.id}&${q}`)).json().results as Array<{ id: number }>).length;
    expect(await found('content_types=dcim.device')).toBe(1);
    expect(await found('content_types=dcim.site')).toBe(0);
    expect(await found('content_types__n=dcim.site')).toBe(1);
    const deviceType = (await t.get('/api/extras/content-types/?app_label=dcim&model=device')).json().results[0];
    expect(await found(`content_type_id=${deviceType.id}`)).toBe(1);
  });

  it('validates as NetBox 3.4 did: content types with events, at least one action', async () => {
    const bad = await t.post('/api/extras/webhooks/', {
      name: uniq('hook'),
      payload_url: 'http://127.0.0.1:9/x',
      content_types: ['dcim.site'],
      type_create: false,
      type_update: false,
      type_delete: false,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('type_create');
    const unknown = await t.post('/api/extras/webhooks/', {
      name: uniq('hook'),
      payload_url: 'http://127.0.0.1:9/x',
      content_types: ['dcim.nothing'],
      type_create: true,
    });
    expect(unknown.json()).toEqual({ content_types: ['Invalid content type: dcim.nothing'] });
    const cond = await t.post('/api/extras/webhooks/', {
      name: uniq('hook'),
      payload_url: 'http://127.0.0.1:9/x',
      content_types: ['dcim.site'],
      type_create: true,
      conditions: { nand: [] },
    });
    expect(cond.json()).toHaveProperty('conditions');
  });

  it('deleting a webhook deletes the rules that fire it', async () => {
    const hook = (
      await t.post('/api/extras/webhooks/', {
        name: uniq('hook'),
        payload_url: 'http://127.0.0.1:9/x',
        content_types: ['dcim.site'],
        type_create: true,
      })
    ).json();
    expect(await rulesOf(hook.id)).toHaveLength(1);
    expect((await t.del(`/api/extras/webhooks/${hook.id}/`)).statusCode).toBe(204);
    expect(await rulesOf(hook.id)).toHaveLength(0);
  });
});

describe('a NetBox 3.7 webhook', () => {
  it('is only an HTTP target: no rule is made for it, and its 3.4 view says it fires nothing', async () => {
    const hook = (
      await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: 'http://127.0.0.1:9/x', secret: 'abc' })
    ).json();
    expect(await rulesOf(hook.id)).toHaveLength(0);
    expect(hook).toMatchObject({
      content_types: [],
      type_create: false,
      type_update: false,
      type_delete: false,
      secret: 'abc',
    });
  });

  it('keeps its secret out of the change log', async () => {
    const hook = (
      await t.post('/api/extras/webhooks/', {
        name: uniq('hook'),
        payload_url: 'http://127.0.0.1:9/x',
        secret: 'topsecret',
      })
    ).json();
    const change = (
      await t.get(`/api/extras/object-changes/?changed_object_type=extras.webhook&changed_object_id=${hook.id}`)
    ).json().results[0];
    expect(JSON.stringify(change)).not.toContain('topsecret');
  });
});

describe('who may write webhooks and event rules', () => {
  it('refuses a user without the permissions, and lets one who holds them', async () => {
    const u = await makeUser(t);
    const body = { name: uniq('hook'), payload_url: 'http://127.0.0.1:9/x' };
    expect((await t.post('/api/extras/webhooks/', body, u.token)).statusCode).toBe(403);
    await grant(t, { object_types: ['extras.webhook'], actions: ['view', 'add'], users: [u.id] });
    const ok = await t.post('/api/extras/webhooks/', body, u.token);
    expect(ok.statusCode).toBe(201);
    const rule = {
      name: uniq('rule'),
      content_types: ['dcim.site'],
      type_create: true,
      action_object_id: ok.json().id,
    };
    expect((await t.post('/api/extras/event-rules/', rule, u.token)).statusCode).toBe(403);
    // a 3.4-shaped webhook needs the event-rule permission too: it writes one
    const legacy = await t.post(
      '/api/extras/webhooks/',
      { name: uniq('hook'), payload_url: 'http://127.0.0.1:9/x', content_types: ['dcim.site'], type_create: true },
      u.token,
    );
    expect(legacy.statusCode).toBe(403);
  });
});

describe('content-type filters', () => {
  it('filter event rules by content type name lookups and by content type id', async () => {
    const hook = (
      await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: 'http://127.0.0.1:9/x' })
    ).json();
    const rule = (
      await t.post('/api/extras/event-rules/', {
        name: uniq('rule'),
        content_types: ['circuits.provider'],
        type_create: true,
        action_object_id: hook.id,
      })
    ).json();
    const ids = async (q: string) =>
      ((await t.get(`/api/extras/event-rules/?${q}`)).json().results as Array<{ id: number }>).map((r) => r.id);
    expect(await ids('content_types=circuits.provider')).toContain(rule.id);
    expect(await ids('content_types__isw=circuits.')).toContain(rule.id);
    expect(await ids('content_types__nic=provider')).not.toContain(rule.id);
    const ct = (await t.get('/api/extras/content-types/?app_label=circuits&model=provider')).json().results[0];
    expect(await ids(`content_type_id=${ct.id}`)).toContain(rule.id);
    expect(await ids(`content_type_id__n=${ct.id}`)).not.toContain(rule.id);
    expect((await t.get('/api/extras/event-rules/?content_type_id=abc')).statusCode).toBe(400);
  });
});
