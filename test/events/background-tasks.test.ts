/**
 * The background-task API in NetBox 4's shapes: queues, tasks with their request,
 * response and error log, the manual retry of a failed delivery, workers; staff only.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { signIn } from '../helpers/web-session.js';
import { uniq, makeUser } from '../factories/index.js';

let t: TestApp;
let rx: Receiver;
let worker: EventWorker;
let failedId: string;
beforeAll(async () => {
  t = await makeTestApp();
  rx = await startReceiver();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50, name: 'test-worker' });
  const hook = (await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: `${rx.url}/in` })).json();
  await t.post('/api/extras/event-rules/', {
    name: uniq('rule'),
    content_types: ['dcim.site'],
    type_create: true,
    action_object_id: hook.id,
  });
  rx.answer = { status: 503, delayMs: 0, body: 'try later' };
  const name = uniq('site');
  await t.post('/api/dcim/sites/', { name, slug: name });
  await worker.idle();
  rx.answer = { status: 204, delayMs: 0, body: '' };
  const other = uniq('site');
  await t.post('/api/dcim/sites/', { name: other, slug: other });
  await worker.idle();
  const failed = (await sql<{ id: number }>`select id from core_delivery where status = 'failed'`.execute(t.db.kysely))
    .rows[0]!;
  failedId = String(failed.id);
});
afterAll(async () => {
  await worker.stop();
  await rx.close();
  await t.close();
});

describe('/api/core/background-tasks/', () => {
  it('lists deliveries as tasks, newest first, with status, result and error log', async () => {
    const res = await t.get('/api/core/background-tasks/');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    const [ok, failed] = body.results;
    expect(ok).toMatchObject({
      status: 'finished',
      is_finished: true,
      is_failed: false,
      func_name: 'extras.webhooks.send_webhook',
      origin: 'default',
      result: { status_code: 204 },
    });
    expect(failed).toMatchObject({
      id: failedId,
      status: 'failed',
      is_failed: true,
      exc_info: 'the receiver answered 503 Service Unavailable',
    });
    expect(failed.meta.request).toMatchObject({ method: 'POST', url: `${rx.url}/in` });
    for (const k of ['created_at', 'enqueued_at', 'started_at', 'ended_at', 'worker_name', 'description', 'kwargs'])
      expect(failed).toHaveProperty(k);
  });

  it('filters by status and queue, and refuses what it does not know', async () => {
    expect(
      (await t.get('/api/core/background-tasks/?status=failed')).json().results.map((r: { id: string }) => r.id),
    ).toEqual([failedId]);
    expect((await t.get('/api/core/background-tasks/?queue=default&status=finished')).json().count).toBe(1);
    expect((await t.get('/api/core/background-tasks/?queue=other')).json().count).toBe(0);
    expect((await t.get('/api/core/background-tasks/?status=bogus')).statusCode).toBe(400);
    expect((await t.get('/api/core/background-tasks/?colour=red')).statusCode).toBe(400);
    expect((await t.get('/api/core/background-tasks/999999/')).statusCode).toBe(404);
  });

  it('requeues a failed delivery, which is sent again and judged by the same 2XX rule', async () => {
    rx.received.length = 0;
    const res = await t.post(`/api/core/background-tasks/${failedId}/requeue/`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(['queued', 'started', 'finished']).toContain(res.json().status);
    await worker.idle();
    const task = (await t.get(`/api/core/background-tasks/${failedId}/`)).json();
    expect(task).toMatchObject({ status: 'finished', result: { status_code: 204 }, meta: { attempts: 2 } });
    expect(rx.received).toHaveLength(1);
    const again = await t.post(`/api/core/background-tasks/${failedId}/requeue/`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'Only a failed task can be requeued.' });
  });
});

describe('queues and workers', () => {
  it('counts the queue and lists the live worker', async () => {
    const queues = (await t.get('/api/core/background-queues/')).json();
    expect(queues.results[0]).toMatchObject({
      name: 'default',
      jobs: 0,
      started_jobs: 0,
      failed_jobs: 0,
      finished_jobs: 2,
      scheduled_jobs: 0,
      workers: 1,
    });
    const workers = (await t.get('/api/core/background-workers/')).json();
    expect(workers.results[0]).toMatchObject({
      name: 'test-worker',
      state: 'idle',
      queue_names: ['default'],
      successful_job_count: 2,
      failed_job_count: 1,
    });
  });
});

describe('who may see them', () => {
  it('staff and superusers, with a token or a signed-in session; others get 403', async () => {
    const u = await makeUser(t);
    expect((await t.get('/api/core/background-tasks/', u.token)).statusCode).toBe(403);
    expect((await t.get('/api/core/background-tasks/', null)).statusCode).toBe(403);
    const browser = await signIn(t, t.username, t.password);
    const viaSession = await browser.request('GET', '/api/core/background-queues/', {
      headers: { accept: 'application/json' },
    });
    expect(viaSession.statusCode).toBe(200);
  });
});

describe('/core/background-tasks/ (the page)', () => {
  it('shows a superuser the queue and its deliveries, and retries a failed one with the CSRF-protected button', async () => {
    rx.answer = { status: 418, delayMs: 0, body: '' };
    const name = uniq('site');
    await t.post('/api/dcim/sites/', { name, slug: name });
    await worker.idle();
    const failed = (await t.get('/api/core/background-tasks/?status=failed')).json().results[0];
    const browser = await signIn(t, t.username, t.password);
    const list = await browser.request('GET', '/core/background-tasks/?status=failed');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`<a href="/core/background-tasks/${failed.id}/">${failed.id}</a>`);
    expect(list.body).toContain('the receiver answered 418');
    const detail = await browser.request('GET', `/core/background-tasks/${failed.id}/`);
    expect(detail.body).toContain('<h2>Request</h2>');
    expect(detail.body).toContain(`action="/core/background-tasks/${failed.id}/requeue/"`);
    const csrf = detail.body.match(/name="csrfmiddlewaretoken" value="(\w{64})"/)![1]!;
    const refused = await browser.request('POST', `/core/background-tasks/${failed.id}/requeue/`, { form: {} });
    expect(refused.statusCode).toBe(403);
    rx.answer = { status: 200, delayMs: 0, body: '' };
    const retried = await browser.request('POST', `/core/background-tasks/${failed.id}/requeue/`, {
      form: { csrfmiddlewaretoken: csrf },
    });
    expect(retried.statusCode).toBe(303);
    await worker.idle();
    expect((await t.get(`/api/core/background-tasks/${failed.id}/`)).json().status).toBe('finished');
  });

  it('is for superusers only', async () => {
    const u = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    expect((await browser.request('GET', '/core/background-tasks/')).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/core/background-tasks/',
      headers: { accept: 'text/html' },
    });
    expect(anonymous.statusCode).toBe(302);
  });
});
