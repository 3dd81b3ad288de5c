/**
 * Webhooks of a deployment speaking NetBox 4.4 (API_DIALECT=4.4): the payload carries 4.4's
 * object_type and the object as 4.4 shows it, whichever dialect the writing client spoke.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { uniq } from '../factories/index.js';

let t: TestApp;
let rx: Receiver;
let worker: EventWorker;
beforeAll(async () => {
  t = await makeTestApp({ API_DIALECT: '4.4' });
  rx = await startReceiver();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
});
afterAll(async () => {
  await worker.stop();
  await rx.close();
  await t.close();
});

describe('a 4.4 deployment', () => {
  it('answers in 4.4 unless asked for 3.4, and posts 4.4 payloads for writes in either', async () => {
    const w = await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: `${rx.url}/hook` });
    expect(w.statusCode, w.body).toBe(201);
    const r = await t.post('/api/extras/event-rules/', {
      name: uniq('rule'),
      content_types: ['dcim.rack'],
      type_create: true,
      action_object_type: 'extras.webhook',
      action_object_id: w.json().id,
    });
    expect(r.statusCode, r.body).toBe(201);
    const name = uniq('site');
    const site = (await t.post('/api/dcim/sites/', { name, slug: name })).json();
    // a 3.4 client writes a rack the 3.4 way
    const made = await t.request('POST', '/api/dcim/racks/', {
      body: { name: 'r1', site: site.id, type: '2-post-frame' },
      headers: { accept: 'application/json; version=3.4' },
    });
    expect(made.headers['api-version']).toBe('3.4');
    expect(made.json().type.value).toBe('2-post-frame');
    const [req] = await rx.waitFor(1);
    const body = JSON.parse(req!.body);
    expect(Object.keys(body)).toEqual([
      'event',
      'timestamp',
      'model',
      'object_type',
      'username',
      'request_id',
      'data',
      'snapshots',
    ]);
    expect(body).toMatchObject({ event: 'created', model: 'rack', object_type: 'dcim.rack' });
    expect(body.data.form_factor.value).toBe('2-post-frame');
    expect(body.data).not.toHaveProperty('type');
    expect(body.data.display_url).toBe(String(made.json().url).replace('/api/', '/'));
    const read = await t.get(`/api/dcim/racks/${made.json().id}/`);
    expect(read.headers['api-version']).toBe('4.4');
    expect(body.data).toEqual(read.json());
    await worker.idle();
  });
});
