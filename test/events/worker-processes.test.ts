/**
 * Webhook workers as real processes: a service killed with SIGKILL in the middle of
 * deliveries loses no event (another start takes the claimed deliveries over once their lease
 * expires), and two `inventory worker` processes on one PostgreSQL share the work without
 * sending any event twice.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type ChildDatabase, childDatabase, CHILD_TOKEN, startChildService } from '../helpers/child-service.js';
import { ENGINE } from '../helpers/engine.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { uniq } from '../factories/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => rx.close());

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Token ${CHILD_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> };
}

async function hookTo(url: string, receiver: Receiver) {
  const hook = await api(url, 'POST', '/api/extras/webhooks/', {
    name: uniq('hook'),
    payload_url: `${receiver.url}/in`,
  });
  expect(hook.status).toBe(201);
  const rule = await api(url, 'POST', '/api/extras/event-rules/', {
    name: uniq('rule'),
    content_types: ['dcim.site'],
    type_create: true,
    action_object_id: hook.json.id,
  });
  expect(rule.status).toBe(201);
}

const sitesIn = (r: Receiver) => new Set(r.received.map((q) => JSON.parse(q.body).data.id as number));

describe('a service killed with SIGKILL mid-delivery', () => {
  let db: ChildDatabase;
  beforeAll(async () => {
    db = await childDatabase();
  });
  afterAll(async () => db.drop());

  it('loses no event: the next start takes over the claimed deliveries once their lease expires', async () => {
    const env = { WEBHOOK_LEASE: '2', WEBHOOK_TIMEOUT: '60', WEBHOOK_CONCURRENCY: '2' };
    const first = await startChildService(db, env);
    await hookTo(first.url, rx);
    // the receiver holds every request: deliveries stay in flight
    rx.answer = { status: 200, delayMs: 120_000, body: '' };
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const name = uniq('site');
      const res = await api(first.url, 'POST', '/api/dcim/sites/', { name, slug: name });
      ids.push(Number(res.json.id));
    }
    await rx.waitFor(2);
    first.child.kill('SIGKILL');
    await first.exited;
    rx.answer = { status: 200, delayMs: 0, body: '' };
    const second = await startChildService(db, env);
    try {
      const deadline = Date.now() + 30_000;
      while (ids.some((id) => !sitesIn(rx).has(id))) {
        if (Date.now() > deadline)
          throw new Error(`not delivered: ${ids.filter((id) => !sitesIn(rx).has(id))}\n${second.output()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      // the receiver has each request before the worker records its outcome: wait for the records
      let statuses: string[] = [];
      while (Date.now() < deadline) {
        const tasks = await api(second.url, 'GET', '/api/core/background-tasks/?limit=100');
        statuses = (tasks.json.results as Array<{ status: string }>).map((t) => t.status);
        if (statuses.every((s) => s === 'finished')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(statuses.filter((s) => s !== 'finished')).toEqual([]);
      expect(statuses).toHaveLength(5);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 120_000);
});

describe.runIf(ENGINE === 'postgres')('two worker processes on one PostgreSQL', () => {
  let db: ChildDatabase;
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    db = await childDatabase();
  });
  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await db.drop();
  });

  it('share the deliveries and send none twice', async () => {
    const service = await startChildService(db, { EVENT_WORKER: 'false' });
    try {
      await hookTo(service.url, rx);
      rx.received.length = 0;
      rx.answer = { status: 200, delayMs: 30, body: '' };
      for (let i = 0; i < 2; i++) {
        const w = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'worker'], {
          cwd: ROOT,
          env: { ...process.env, ...db.env, LOG_LEVEL: 'warn', WEBHOOK_CONCURRENCY: '3' },
          stdio: 'ignore',
        });
        workers.push(w);
      }
      // both registered before the first event: a worker still starting (tsx, a loaded machine)
      // would find the other had sent all 40 already
      const check = await db.open();
      try {
        const deadline = Date.now() + 60_000;
        while (
          (await sql<{ n: number }>`select count(*)::int as n from core_worker`.execute(check.kysely)).rows[0]!.n < 2
        ) {
          expect(Date.now(), 'both workers registered within 60 s').toBeLessThan(deadline);
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        await check.close();
      }
      const names = Array.from({ length: 40 }, () => uniq('site'));
      const created = await api(
        service.url,
        'POST',
        '/api/dcim/sites/',
        names.map((n) => ({ name: n, slug: n })),
      );
      expect(created.status).toBe(201);
      await rx.waitFor(40, 60_000);
      await new Promise((r) => setTimeout(r, 500));
      const ids = rx.received.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(40);
      expect(ids).toHaveLength(40);
      const after = await db.open();
      const byWorker = await sql<{
        worker: string;
        n: number;
      }>`select worker, count(*)::int as n from core_delivery group by worker`.execute(after.kysely);
      await after.close();
      expect(byWorker.rows.length).toBe(2);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 120_000);
});
