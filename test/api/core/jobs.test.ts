/**
 * Jobs (NetBox 3.5-3.7 core.Job shape): data source syncs, and webhook deliveries read as jobs of
 * their webhook; and the core app's root, which lists them beside the staff-only background views.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../../src/core/events/index.js';
import type { EventWorker } from '../../../src/core/events/worker.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { uniq, grant, makeUser, type Json } from '../../factories/index.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-dirs.js';

let t: TestApp;
let rx: Receiver;
let worker: EventWorker;
let hookId: number;
let dir: string;
beforeAll(async () => {
  t = await makeTestApp();
  rx = await startReceiver();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50, name: 'jobs-test-worker' });
  const hook = (await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: `${rx.url}/in` })).json();
  hookId = hook.id;
  await t.post('/api/extras/event-rules/', {
    name: uniq('rule'),
    content_types: ['dcim.site'],
    type_create: true,
    action_object_id: hook.id,
  });
  rx.answer = { status: 503, delayMs: 0, body: 'try later' };
  const failing = uniq('site');
  await t.post('/api/dcim/sites/', { name: failing, slug: failing });
  await worker.idle();
  rx.answer = { status: 204, delayMs: 0, body: '' };
  const ok = uniq('site');
  await t.post('/api/dcim/sites/', { name: ok, slug: ok });
  await worker.idle();
  dir = makeTempDir('inv-jobs-');
  writeFileSync(join(dir, 'a.txt'), 'a');
});
afterAll(async () => {
  await worker.stop();
  await rx.close();
  await t.close();
  removeTempDir(dir);
});

async function jobs(query = ''): Promise<Json> {
  const res = await t.get(`/api/core/jobs/?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('GET /api/core/jobs/', () => {
  it('shows each webhook delivery as a job of its webhook, with the background task id', async () => {
    const deliveries = (
      await sql<{ id: number; status: string }>`select id, status from core_delivery order by id`.execute(t.db.kysely)
    ).rows;
    expect(deliveries.map((d) => d.status)).toEqual(['failed', 'succeeded']);
    const list = await jobs('object_type=extras.webhook&ordering=id');
    expect(list.results.map((j: Json) => j.id)).toEqual(deliveries.map((d) => Number(d.id)));
    const [failed, ok] = list.results;
    expect(ok).toMatchObject({
      object_type: 'extras.webhook',
      object_id: hookId,
      status: { value: 'completed', label: 'Completed' },
      interval: null,
      error: '',
    });
    expect(ok.name).toMatch(/^Webhook ".*": created dcim\.site #\d+$/);
    expect(ok.user.username).toBe(t.username);
    expect(ok.data).toMatchObject({
      event: 'created',
      model: 'dcim.site',
      delivery: 'succeeded',
      response_status: 204,
    });
    expect(ok.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.started).toEqual(expect.any(String));
    expect(ok.completed).toEqual(expect.any(String));
    expect(failed).toMatchObject({
      status: { value: 'failed' },
      error: 'the receiver answered 503 Service Unavailable',
    });
    // the same id on the background-task view
    expect((await t.get(`/api/core/background-tasks/${failed.id}/`)).json().status).toBe('failed');
    expect((await t.get(`/api/core/jobs/${failed.id}/`)).json().job_id).toBe(failed.job_id);
  });

  it('lists a sync job beside the deliveries with an id of its own', async () => {
    const ds = (await t.post('/api/core/data-sources/', { name: uniq('ds'), type: 'local', source_url: dir })).json();
    expect((await t.post(`/api/core/data-sources/${ds.id}/sync/`, {})).statusCode).toBe(200);
    const all = await jobs('limit=100');
    const ids = all.results.map((j: Json) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    const sync = all.results.find((j: Json) => j.object_type === 'core.datasource' && j.object_id === ds.id);
    expect(sync).toMatchObject({
      name: 'Synchronization',
      status: { value: 'completed' },
      data: { created: 1, updated: 0, deleted: 0, skipped: [] },
    });
    // newest first
    expect(all.results[0].id).toBe(sync.id);
  });

  it('filters by status, name, times and user, and refuses values they cannot take', async () => {
    expect((await jobs('status=failed')).count).toBe(1);
    expect((await jobs('status__n=failed&object_type=extras.webhook')).count).toBe(1);
    expect((await jobs('name__ic=webhook')).count).toBe(2);
    expect((await jobs('created__after=2000-01-01T00:00:00Z&object_type=extras.webhook')).count).toBe(2);
    expect((await jobs('created__before=2000-01-01T00:00:00Z')).count).toBe(0);
    expect((await jobs('completed__after=2000-01-01')).count).toBeGreaterThanOrEqual(2);
    expect((await t.get('/api/core/jobs/?created__after=yesterday')).statusCode).toBe(400);
    expect((await t.get('/api/core/jobs/?status=bogus')).statusCode).toBe(400);
    expect((await jobs('q=webhook')).count).toBe(2);
    expect((await jobs('interval__gte=1')).count).toBe(0);
    expect((await jobs('interval__empty=true&object_type=extras.webhook&ordering=interval,-object_id')).count).toBe(2);
    // q finds the user's name too; user= takes ids (NetBox 3.7)
    expect((await jobs(`q=${t.username}&object_type=extras.webhook`)).count).toBe(2);
    const me = (await t.get(`/api/users/users/?username=${t.username}`)).json().results[0].id;
    expect((await jobs(`user=${me}&object_type=extras.webhook`)).count).toBe(2);
    expect((await jobs(`user__n=${me}&object_type=extras.webhook`)).count).toBe(0);
    expect((await t.get(`/api/core/jobs/?user=${t.username}`)).statusCode).toBe(400);
  });

  it('is read-only and needs core.view_job', async () => {
    expect((await t.post('/api/core/jobs/', {})).statusCode).toBe(405);
    const user = await makeUser(t);
    expect((await t.get('/api/core/jobs/', user.token)).statusCode).toBe(403);
    await grant(t, { object_types: ['core.job'], actions: ['view'], users: [user.id] });
    expect((await t.get('/api/core/jobs/', user.token)).statusCode).toBe(200);
  });
});

describe('GET /api/core/', () => {
  it('lists the models and the background views; those stay staff only', async () => {
    const user = await makeUser(t);
    const res = await t.get('/api/core/', user.token);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual([
      'background-queues',
      'background-tasks',
      'background-workers',
      'data-files',
      'data-sources',
      'jobs',
      // NetBox 4.1 moved the change log here; served in both dialects
      'object-changes',
    ]);
    expect(res.json().jobs).toBe('http://localhost:80/api/core/jobs/');
    expect((await t.get('/api/core/background-tasks/', user.token)).statusCode).toBe(403);
    expect((await t.get('/api/', null)).json().core).toBe('http://localhost:80/api/core/');
  });
});
