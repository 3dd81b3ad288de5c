/**
 * An event rule's triggers: five booleans in NetBox 3.4, the `event_types` list in 4.1+; one stored
 * form behind both (apps/extras/event-types.ts). A 4.4 webhook shows none of its 3.4 triggers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
let webhook: number;
const V44 = { accept: 'application/json; version=4.4' };
const as44 = (method: string, url: string, body?: unknown) => t.request(method, url, { body, headers: V44 });
beforeAll(async () => {
  t = await makeTestApp();
  webhook = (await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: 'http://127.0.0.1:9/x' })).json()
    .id;
});
afterAll(async () => t.close());

const rule = (extra: Record<string, unknown>) => ({
  name: uniq('rule'),
  content_types: ['dcim.site'],
  action_object_type: 'extras.webhook',
  action_object_id: webhook,
  ...extra,
});

describe('event types', () => {
  it('reads the booleans as 4.4 lists them, and writes the list in either dialect', async () => {
    const old = (await t.post('/api/extras/event-rules/', rule({ type_create: true, type_job_end: true }))).json();
    expect(old).not.toHaveProperty('event_types');
    const now = (await as44('GET', `/api/extras/event-rules/${old.id}/`)).json();
    expect(now.event_types).toEqual(['object_created', 'job_completed', 'job_errored', 'job_failed']);
    expect(now).not.toHaveProperty('type_create');
    const made = await as44(
      'POST',
      '/api/extras/event-rules/',
      rule({ event_types: ['object_updated', 'object_deleted'] }),
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().event_types).toEqual(['object_updated', 'object_deleted']);
    const read34 = (await t.get(`/api/extras/event-rules/${made.json().id}/`)).json();
    expect(read34).toMatchObject({ type_create: false, type_update: true, type_delete: true, type_job_end: false });
    // a 3.4 client may send the list too; it replaces all five
    const patched = await t.patch(`/api/extras/event-rules/${old.id}/`, { event_types: ['job_started'] });
    expect(patched.json()).toMatchObject({ type_create: false, type_job_start: true, type_job_end: false });
  });

  it('refuses an unknown or empty list with the field named', async () => {
    const bad = await as44('POST', '/api/extras/event-rules/', rule({ event_types: ['object_exploded'] }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ event_types: ['"object_exploded" is not a valid choice.'] });
    const none = await as44('POST', '/api/extras/event-rules/', rule({ event_types: [] }));
    expect(none.statusCode).toBe(400);
    expect(Object.keys(none.json())).toEqual(['event_types']);
  });

  it('filters by event type in 4.4', async () => {
    const a = (await as44('POST', '/api/extras/event-rules/', rule({ event_types: ['job_failed'] }))).json();
    const ids = async (q: string) =>
      ((await as44('GET', `/api/extras/event-rules/?${q}`)).json().results as Array<{ id: number }>).map((r) => r.id);
    expect(await ids(`event_type=job_errored&id=${a.id}`)).toEqual([a.id]);
    expect(await ids(`event_type=object_created&id=${a.id}`)).toEqual([]);
  });

  it('shows a 4.4 webhook without the triggers 3.7 moved to event rules', async () => {
    const hook = (await as44('GET', `/api/extras/webhooks/${webhook}/`)).json();
    for (const k of ['content_types', 'type_create', 'enabled', 'conditions']) expect(hook).not.toHaveProperty(k);
    expect(hook).toHaveProperty('payload_url');
  });
});
