/** Webhooks end to end: a real receiver on loopback, the in-process worker, both engines. */
import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { grant, makeUser, uniq } from '../factories/index.js';

let t: TestApp;
let rx: Receiver;
let worker: EventWorker;
beforeAll(async () => {
  t = await makeTestApp({ WEBHOOK_TIMEOUT: '1' });
  rx = await startReceiver();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
});
afterAll(async () => {
  await worker.stop();
  await rx.close();
  await t.close();
});
beforeEach(async () => {
  rx.received.length = 0;
  rx.answer = { status: 200, delayMs: 0, body: 'ok' };
  // one rule at a time: each test sets up its own
  await sql`delete from extras_eventrule`.execute(t.db.kysely);
});

async function hook(
  webhook: Record<string, unknown> = {},
  rule: Record<string, unknown> = {},
): Promise<{ webhook: number; rule: number }> {
  const w = await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: `${rx.url}/hook`, ...webhook });
  expect(w.statusCode, w.body).toBe(201);
  const r = await t.post('/api/extras/event-rules/', {
    name: uniq('rule'),
    content_types: ['dcim.site'],
    type_create: true,
    type_update: true,
    type_delete: true,
    action_object_type: 'extras.webhook',
    action_object_id: w.json().id,
    ...rule,
  });
  expect(r.statusCode, r.body).toBe(201);
  return { webhook: w.json().id, rule: r.json().id };
}

const newSite = async (attrs: Record<string, unknown> = {}) => {
  const name = uniq('site');
  const res = await t.post('/api/dcim/sites/', { name, slug: name, ...attrs });
  expect(res.statusCode, res.body).toBe(201);
  return res;
};

const deliveries = async () =>
  (
    await sql<{
      status: string;
      response_status: number | null;
      error: string | null;
      attempts: number;
    }>`select status, response_status, error, attempts
    from core_delivery order by id desc`.execute(t.db.kysely)
  ).rows;

describe('default body and headers', () => {
  it("posts the spec's JSON object for a create, with prechange null", async () => {
    await hook();
    const res = await newSite({ description: 'first' });
    const site = res.json();
    const [req] = await rx.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/hook');
    expect(req!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req!.body);
    expect(Object.keys(body)).toEqual(['event', 'timestamp', 'model', 'username', 'request_id', 'data', 'snapshots']);
    expect(body).toMatchObject({ event: 'created', model: 'site', request_id: res.headers['x-request-id'] });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(body.data).toEqual(site);
    expect(body.snapshots.prechange).toBeNull();
    expect(body.snapshots.postchange).toMatchObject({ name: site.name, description: 'first' });
    expect(req!.headers['webhook-id']).toMatch(/^msg_\d+$/);
    expect(Number(req!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(req!.headers['x-hook-signature']).toBeUndefined();
    await worker.idle();
    expect((await deliveries())[0]).toMatchObject({ status: 'succeeded', response_status: 200, error: null });
  });

  it('sends updated and deleted events, postchange null on delete and data the last state', async () => {
    await hook();
    const site = (await newSite()).json();
    await t.patch(`/api/dcim/sites/${site.id}/`, { description: 'changed' });
    await t.del(`/api/dcim/sites/${site.id}/`);
    const reqs = await rx.waitFor(3);
    const bodies = reqs.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event)).toEqual(['created', 'updated', 'deleted']);
    expect(bodies[1].snapshots.prechange.description).toBe('');
    expect(bodies[1].snapshots.postchange.description).toBe('changed');
    expect(bodies[2].snapshots.postchange).toBeNull();
    expect(bodies[2].data).toMatchObject({ id: site.id, description: 'changed' });
  });
});

describe('signatures', () => {
  it('signs the exact body: X-Hook-Signature (HMAC-SHA512 hex) and Standard Webhooks webhook-signature', async () => {
    await hook({ secret: 's3cret' });
    await newSite();
    const [req] = await rx.waitFor(1);
    const expected = createHmac('sha512', 's3cret').update(req!.body).digest('hex');
    expect(req!.headers['x-hook-signature']).toBe(expected);
    const id = req!.headers['webhook-id'];
    const ts = req!.headers['webhook-timestamp'];
    const std = createHmac('sha256', 's3cret').update(`${id}.${ts}.${req!.body}`).digest('base64');
    expect(req!.headers['webhook-signature']).toBe(`v1,${std}`);
  });
});

describe('templates', () => {
  it('renders the URL, headers and body as Jinja2 with the event context', async () => {
    await hook({
      payload_url: `${rx.url}/sites/{{ data.slug }}?e={{ event }}`,
      additional_headers: 'X-Site: {{ data.name | upper }}\nX-User: {{ username }}',
      body_template: '{"site": {{ data.name | tojson }}, "model": "{{ model }}"}',
      http_method: 'PUT',
      http_content_type: 'application/x-custom',
    });
    const site = (await newSite()).json();
    const [req] = await rx.waitFor(1);
    expect(req!.method).toBe('PUT');
    expect(req!.url).toBe(`/sites/${site.slug}?e=created`);
    expect(req!.headers['x-site']).toBe(site.name.toUpperCase());
    expect(req!.headers['x-user']).toBe(t.username);
    expect(req!.headers['content-type']).toBe('application/x-custom');
    expect(JSON.parse(req!.body)).toEqual({ site: site.name, model: 'site' });
  });

  it('cannot reach JavaScript internals from a template', async () => {
    await hook({
      body_template: '{{ "".constructor.constructor("return process")() }}|{{ data.constructor }}|{{ data.__proto__ }}',
    });
    await newSite();
    await worker.idle();
    const [d] = await deliveries();
    // either it renders nothing dangerous or it fails its own delivery; the process is untouched
    if (d!.status === 'succeeded') expect(rx.received[0]!.body).not.toMatch(/process|function|Object/);
    else expect(d!.error).toMatch(/^template error/);
  });

  it('stops a template that runs forever or grows without bound, failing only that delivery', async () => {
    for (const body_template of [
      '{% for i in range(100000000) %}{{ i }}{% endfor %}',
      '{% set s = namespace(x="a") %}{% for i in range(24) %}{% set s.x = s.x ~ s.x %}{% endfor %}{{ s.x }}',
    ]) {
      await sql`delete from extras_eventrule`.execute(t.db.kysely);
      await hook({ body_template });
      await newSite();
      await worker.idle();
      const [failed] = await deliveries();
      expect(failed!.status, body_template).toBe('failed');
      expect(failed!.error).toMatch(
        /^template error: the (template ran longer than|rendered template is larger than|template used more memory than allowed)/,
      );
    }
    const [d] = await deliveries();
    expect(d!.status).toBe('failed');
    expect(d!.error).toMatch(
      /^template error: the (template ran longer than|rendered template is larger than|template used more memory than allowed)/,
    );
    expect((await t.get('/api/status/')).statusCode).toBe(200);
    // the sandbox is replaced: the next delivery works
    await sql`delete from extras_eventrule`.execute(t.db.kysely);
    await hook();
    await newSite();
    await rx.waitFor(1);
  });
});

describe('conditions', () => {
  it("sends only when the rule's conditions match the object's data; the others are skipped", async () => {
    await hook(
      {},
      {
        conditions: {
          and: [
            { attr: 'status.value', value: 'active' },
            { attr: 'name', value: 'skip', op: 'contains', negate: true },
          ],
        },
      },
    );
    await newSite({ status: 'planned' });
    await newSite({ status: 'active', name: uniq('skip-me') });
    const active = (await newSite({ status: 'active' })).json();
    await worker.idle();
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0]!.body).data.id).toBe(active.id);
    expect((await deliveries()).slice(0, 3).map((d) => d.status)).toEqual(['succeeded', 'skipped', 'skipped']);
  });

  it('refuses invalid conditions on save with 400', async () => {
    const w = (await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: rx.url })).json();
    for (const conditions of [
      { xor: [] },
      { and: [{ attr: 'a', value: 1, op: 'regex' }] },
      { and: [{ value: 1 }] },
      'string',
      { and: [{ attr: 'a', value: '(', op: 'regex' }] },
    ]) {
      const res = await t.post('/api/extras/event-rules/', {
        name: uniq('r'),
        content_types: ['dcim.site'],
        type_create: true,
        action_object_id: w.id,
        conditions,
      });
      expect(res.statusCode, JSON.stringify(conditions)).toBe(400);
      expect(res.json()).toHaveProperty('conditions');
    }
  });
});

describe('failures', () => {
  it('marks a delivery failed on a non-2XX answer, keeping status, body excerpt and error', async () => {
    await hook();
    rx.answer = { status: 500, delayMs: 0, body: 'receiver broke' };
    await newSite();
    await rx.waitFor(1);
    await worker.idle();
    const rows = (
      await sql<{
        status: string;
        response_status: number;
        response_body: string;
        error: string;
      }>`select * from core_delivery order by id desc limit 1`.execute(t.db.kysely)
    ).rows;
    expect(rows[0]).toMatchObject({
      status: 'failed',
      response_status: 500,
      response_body: 'receiver broke',
      error: 'the receiver answered 500 Internal Server Error',
    });
  });

  it('fails on a timeout and on a refused connection', async () => {
    await hook();
    rx.answer = { status: 200, delayMs: 3_000, body: '' };
    await newSite();
    await worker.idle();
    expect((await deliveries())[0]).toMatchObject({ status: 'failed', response_status: null });
    expect((await deliveries())[0]!.error).toMatch(/no (complete )?answer within 1000 ms/);
    await sql`delete from extras_eventrule`.execute(t.db.kysely);
    await hook({ payload_url: 'http://127.0.0.1:9/closed' });
    await newSite();
    await worker.idle();
    expect((await deliveries())[0]!.error).toMatch(/^connection refused/);
  });
});

describe('the outbox', () => {
  it('writes no event for a change that rolled back', async () => {
    await hook();
    // a user who may add only planned sites: the permission's constraints are checked against the
    // written rows, after the insert, its change record and its outbox rows (core/crud/README.md, step 5)
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['add'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    const lastEventId = async () =>
      Number(
        (await sql<{ id: string | null }>`select max(id)::text as id from core_event`.execute(t.db.kysely)).rows[0]!
          .id ?? 0,
      );
    const deliveryCount = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from core_delivery`.execute(t.db.kysely)).rows[0]!.n;
    const first = (await newSite()).json();
    const eventBefore = await lastEventId();
    const deliveriesBefore = await deliveryCount();
    const name = uniq('site');
    const refused = await t.post('/api/dcim/sites/', { name, slug: name, status: 'active' }, u.token);
    expect(refused.statusCode, refused.body).toBe(403);
    // nothing of the refused write is left: no site, no change record, no event, no delivery
    expect((await t.get(`/api/dcim/sites/?slug=${name}`)).json().count).toBe(0);
    const changes = (await t.get('/api/extras/object-changes/?changed_object_type=dcim.site&limit=1000')).json();
    expect(JSON.stringify(changes)).not.toContain(name);
    expect(await lastEventId()).toBe(eventBefore);
    expect(await deliveryCount()).toBe(deliveriesBefore);
    // yet it was written before it rolled back: it used up a site id and an event id (sequences
    // do not roll back), so the next site and its event skip one
    const next = (await newSite()).json();
    expect(next.id).toBe(first.id + 2);
    expect(await lastEventId()).toBe(eventBefore + 2);
    const sent = (await rx.waitFor(2)).map((r) => JSON.parse(r.body).data.id as number);
    expect(sent.sort((a, b) => a - b)).toEqual([first.id, next.id]);
    await worker.idle();
    expect(rx.received).toHaveLength(2);
  });

  it("gives a bulk request one event per object, and one object's events in the order of its changes", async () => {
    await hook();
    const names = [uniq('a'), uniq('b'), uniq('c')];
    const created = (
      await t.post(
        '/api/dcim/sites/',
        names.map((n) => ({ name: n, slug: n })),
      )
    ).json();
    const id = created[0].id;
    for (let i = 1; i <= 5; i++) await t.patch(`/api/dcim/sites/${id}/`, { description: `v${i}` });
    const reqs = await rx.waitFor(8);
    const bodies = reqs.map((r) => JSON.parse(r.body));
    expect(
      bodies
        .filter((b) => b.event === 'created')
        .map((b) => b.data.name)
        .sort(),
    ).toEqual([...names].sort());
    const updates = bodies.filter((b) => b.data.id === id && b.event === 'updated').map((b) => b.data.description);
    expect(updates).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  });
});

describe('a slow receiver', () => {
  // last in the file: its delivery times out against a receiver still holding the request
  it('answers the write without waiting for delivery to a slow receiver', async () => {
    await hook();
    // the receiver answers after 3 s, past WEBHOOK_TIMEOUT (1 s): no delivery can end sooner than
    // 1 s after it starts, so a write that waited for it would find it finished
    rx.answer = { status: 200, delayMs: 3_000, body: 'ok' };
    const res = await newSite();
    const [pending] = await deliveries();
    expect(pending!.status).toMatch(/^(queued|running)$/);
    // the delivery goes on after the answer: it reaches the receiver, and ends only by its timeout
    const [req] = await rx.waitFor(1);
    expect(JSON.parse(req!.body).data.id).toBe(res.json().id);
    await worker.idle();
    expect((await deliveries())[0]).toMatchObject({ status: 'failed', response_status: null });
  });
});
