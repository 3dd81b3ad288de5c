/**
 * Faults of the PostgreSQL server under the service: backends
 * terminated under load, the server unreachable (a loopback TCP proxy that is cut), the change
 * listener gone. Requests in flight answer a JSON 503 with Retry-After - never a 500, never a hang -
 * nothing is half-written, the service recovers by itself, and no cache is trusted meanwhile.
 * PGlite is embedded in the process: it has no connection to lose, so these run on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { APPLICATION_NAME } from '../../../src/db/change-watch.js';
import { openDatabase } from '../../../src/db/client.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE, PG_ADMIN_URL } from '../../helpers/engine.js';
import { startTcpProxy } from '../../helpers/tcp-proxy.js';
import { uniq, makeUser } from '../../factories/index.js';

type Inject = (method: string, url: string, body?: unknown, token?: string) => Promise<LightMyRequestResponse>;

/** fails the test instead of waiting forever: "never a hang" */
function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, fail) => setTimeout(() => fail(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  ]);
}

async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}

/** every answer is a success or a JSON 503 with Retry-After and X-Request-ID */
function expectSuccessOr503(res: LightMyRequestResponse, what: string) {
  if (res.statusCode < 300) return;
  expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.json()).toEqual({ detail: 'The database is unavailable; please retry.' });
}

/** what a client sent in bulk: each batch must be found whole or not at all */
interface Batch {
  prefix: string;
  size: number;
  status: number;
}

/** Mixed reads and writes (bulk included) from `workers` loops until `stop()`; nothing may hang. */
function mixedLoad(inject: Inject, workers: number) {
  let running = true;
  const statuses: number[] = [];
  const batches: Batch[] = [];
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; running; i++) {
      const prefix = `load-${w}-${i}-${randomBytes(3).toString('hex')}`;
      const size = i % 3 === 0 ? 25 : 1;
      const op = i % 4;
      const res = await withinMs(
        op === 0 || op === 2
          ? inject(
              'POST',
              '/api/tenancy/tenants/',
              Array.from({ length: size }, (_, k) => ({ name: `${prefix}-${k}`, slug: `${prefix}-${k}` })),
            )
          : inject('GET', op === 1 ? '/api/tenancy/tenants/?limit=5' : `/api/tenancy/tenants/?name__isw=load-${w}`),
        15_000,
        'a request under load',
      );
      expectSuccessOr503(res, `worker ${w} request ${i}`);
      statuses.push(res.statusCode);
      if (op === 0 || op === 2) batches.push({ prefix, size, status: res.statusCode });
    }
  });
  return {
    statuses,
    batches,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** each batch is all there (acknowledged ones certainly) or not there at all */
async function expectWholeOrNothing(t: TestApp, batches: Batch[]) {
  for (const b of batches) {
    const n = (await t.get(`/api/tenancy/tenants/?name__isw=${b.prefix}-&limit=1`)).json().count as number;
    if (b.status === 201) expect(n, `acknowledged batch ${b.prefix}`).toBe(b.size);
    else expect([0, b.size], `failed batch ${b.prefix}: ${n} of ${b.size} rows`).toContain(n);
  }
}

describe.skipIf(ENGINE !== 'postgres')('PostgreSQL faults under the service (PGlite has no connection to lose)', () => {
  let t: TestApp;
  let dbName: string;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  const inject =
    (app: TestApp['app'], token: string): Inject =>
    (method, url, body, tok) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: {
          authorization: `Token ${tok ?? token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });

  beforeAll(async () => {
    t = await makeTestApp();
    dbName = new URL(t.databaseUrl!).pathname.slice(1);
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await t.close();
  });

  it('answers 503 with Retry-After while its backends are terminated under load, writes whole or nothing, and recovers', async () => {
    const load = mixedLoad(inject(t.app, t.token), 10);
    let terminated = 0;
    for (let round = 0; round < 4; round++) {
      await new Promise((r) => setTimeout(r, 400));
      const res = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      terminated += res.rowCount ?? 0;
    }
    await new Promise((r) => setTimeout(r, 300));
    await load.stop();
    expect(terminated).toBeGreaterThan(4);
    expect(
      load.statuses.filter((s) => s === 503).length,
      'some requests were in flight on a terminated backend',
    ).toBeGreaterThan(0);
    expect(load.statuses.filter((s) => s < 300).length).toBeGreaterThan(0);
    // recovered by itself: the pool opens new connections, the listener listens again
    expect(await until(async () => (await t.get('/api/tenancy/tenants/?limit=1')).statusCode === 200, 5_000)).toBe(
      true,
    );
    expect(await until(() => t.db.changes.reliable, 5_000)).toBe(true);
    await expectWholeOrNothing(t, load.batches);
  });

  it('trusts no cache while its change listener is down: a token revoked by another process is refused at once', async () => {
    const user = await makeUser(t);
    const tokenId = (await t.get(`/api/users/tokens/?user_id=${user.id}`)).json().results[0].id as number;
    const list = '/api/users/tokens/';
    for (let i = 0; i < 3; i++) expect((await t.get(list, user.token)).statusCode).toBe(200);
    // another service process on the same database
    const otherDb = await openDatabase({ databaseUrl: t.databaseUrl, dataDir: '', poolSize: 2 });
    const other = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db: otherDb });
    try {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        [dbName, APPLICATION_NAME],
      );
      expect(await until(() => !t.db.changes.reliable, 2_000)).toBe(true);
      const hits = t.app.inventory.responses!.stats.hits;
      const del = await inject(other, t.token)('DELETE', `/api/users/tokens/${tokenId}/`);
      expect(del.statusCode).toBe(204);
      // the notification of that delete reached nobody here: only not trusting the cache refuses it
      const refused = await t.get(list, user.token);
      expect(t.db.changes.reliable, 'still during the outage').toBe(false);
      expect(refused.statusCode).toBe(403);
      // and no read was served from the response cache meanwhile
      for (let i = 0; i < 3; i++) expect((await t.get(list)).statusCode).toBe(200);
      expect(t.app.inventory.responses!.stats.hits).toBe(hits);
      expect(await until(() => t.db.changes.reliable, 5_000)).toBe(true);
    } finally {
      await other.close();
      await otherDb.close();
    }
  });

  it('answers 503 at once while PostgreSQL is unreachable, and recovers by itself when it is back', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(PG_ADMIN_URL).port || 5432) });
    const url = new URL(t.databaseUrl!);
    url.host = `127.0.0.1:${proxy.port}`;
    const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 4 });
    const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
    const call = inject(app, t.token);
    try {
      expect((await call('GET', '/api/tenancy/tenants/?limit=1')).statusCode).toBe(200);
      const load = mixedLoad(call, 6);
      await new Promise((r) => setTimeout(r, 300));
      await proxy.cut();
      // new requests fail fast, never wait for a connection that cannot come
      const started = Date.now();
      const down = await withinMs(call('GET', '/api/tenancy/tenants/?limit=2'), 5_000, 'a request while unreachable');
      expectSuccessOr503(down, 'while unreachable');
      expect(down.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await until(() => !db.changes.reliable, 2_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      await proxy.restore();
      await load.stop();
      expect(load.statuses).toContain(503);
      expect(
        await until(async () => (await call('GET', '/api/tenancy/tenants/?limit=1')).statusCode === 200, 10_000),
      ).toBe(true);
      expect(await until(() => db.changes.reliable, 5_000)).toBe(true);
      expect((await call('POST', '/api/tenancy/tenants/', { name: uniq('back'), slug: uniq('back') })).statusCode).toBe(
        201,
      );
      await expectWholeOrNothing(t, load.batches);
    } finally {
      await app.close();
      await db.close();
      await proxy.close();
    }
  });
});
