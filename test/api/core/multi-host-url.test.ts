/**
 * A DATABASE_URL naming several hosts (libpq's form, src/db/failover/): the service uses the first
 * host that fits target_session_attrs and, when that host goes away, finds the next by itself;
 * requests meanwhile answer 503 with Retry-After, never 500. Here both "hosts" are loopback proxies
 * to the one test server (test/helpers/tcp-proxy.ts); a real primary and standby, killed and
 * promoted, are test/cluster/failover.test.ts. A write refused because the server is read-only
 * (a standby; SQLSTATE 25006) answers 503 too, on both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { APPLICATION_NAME } from '../../../src/db/change-watch.js';
import { openDatabase } from '../../../src/db/client.js';
import { uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE, PG_ADMIN_URL } from '../../helpers/engine.js';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';

const serverPort = () => Number(new URL(PG_ADMIN_URL).port || 5432);

async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}

function expect503(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.json()).toEqual({ detail: 'The database is unavailable; please retry.' });
}

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

const inject = (app: TestApp['app'], method: string, url: string, body?: unknown) =>
  app.inject({
    method: method as 'GET',
    url,
    headers: {
      authorization: `Token ${t.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe('a write on a read-only server (SQLSTATE 25006)', () => {
  it('answers 503 with Retry-After, and reads go on', async () => {
    // the token's last use is recorded now: a read-only server refuses that write too (http/auth.ts)
    expect((await t.get('/api/dcim/sites/?limit=1')).statusCode).toBe(200);
    // the test's own session is made read-only: PGlite's one connection, or a PostgreSQL pool whose
    // sessions start read-only as a standby's do
    let app = t.app;
    let close = async () => undefined;
    if (ENGINE === 'postgres') {
      const url = new URL(t.databaseUrl!);
      url.searchParams.set('options', '-c default_transaction_read_only=on');
      const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 2 });
      app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
      close = async () => {
        await app.close();
        await db.close();
      };
    } else {
      await sql`set default_transaction_read_only = on`.execute(t.db.kysely);
      close = async () => void (await sql`set default_transaction_read_only = off`.execute(t.db.kysely));
    }
    const slug = uniq('ro');
    try {
      expect503(await inject(app, 'POST', '/api/dcim/sites/', { name: slug, slug }));
      const read = await inject(app, 'GET', '/api/dcim/sites/?limit=1');
      expect(read.statusCode, read.body).toBe(200);
    } finally {
      await close();
    }
    // the refused write left nothing behind
    expect((await t.get(`/api/dcim/sites/?slug=${slug}`)).json().count).toBe(0);
  });
});

describe.skipIf(ENGINE !== 'postgres')('several hosts in DATABASE_URL (PGlite has no hosts)', () => {
  let first: TcpProxy;
  let second: TcpProxy;
  const hostsUrl = (query: string) => {
    const url = new URL(t.databaseUrl!);
    return `postgres://${url.username}@127.0.0.1:${first.port},127.0.0.1:${second.port}${url.pathname}?${query}`;
  };

  beforeAll(async () => {
    first = await startTcpProxy({ host: '127.0.0.1', port: serverPort() });
    second = await startTcpProxy({ host: '127.0.0.1', port: serverPort() });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('uses the first host that fits and moves to the next when it goes away', async () => {
    const db = await openDatabase({
      databaseUrl: hostsUrl('target_session_attrs=read-write'),
      dataDir: '',
      poolSize: 4,
    });
    const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
    try {
      // Setup: the pool and the change watch are on the first host; the second was only asked
      expect((await inject(app, 'GET', '/api/dcim/sites/?limit=1')).statusCode).toBe(200);
      const onSecond = second.accepted;
      expect(onSecond).toBe(1);

      // Action: the first host goes away
      await first.cut();
      const slug = uniq('moved');
      const answers: number[] = [];
      const back = await until(async () => {
        const res = await inject(app, 'POST', '/api/dcim/sites/', { name: slug, slug });
        answers.push(res.statusCode);
        if (res.statusCode !== 201) expect503(res);
        return res.statusCode === 201;
      }, 10_000);

      // Assert: 503s (if any) and then the write, through the second host; the change watch follows
      expect(back, `answers: ${answers.join(' ')}`).toBe(true);
      expect(second.accepted).toBeGreaterThan(onSecond);
      expect(await until(() => db.changes.reliable, 5_000)).toBe(true);
      expect((await t.get(`/api/dcim/sites/?slug=${slug}`)).json().count).toBe(1);
    } finally {
      await app.close();
      await db.close();
      await first.restore();
    }
  });

  it('moves the change watch too when the host it left stays up', async () => {
    const db = await openDatabase({
      databaseUrl: hostsUrl('target_session_attrs=read-write'),
      dataDir: '',
      poolSize: 2,
    });
    const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
    try {
      // Setup: the pool and the change watch listen through the first host
      expect((await inject(app, 'GET', '/api/dcim/sites/?limit=1')).statusCode).toBe(200);
      expect(await until(() => db.changes.reliable, 5_000)).toBe(true);
      const onSecond = second.accepted;

      // Action: the first host takes no new connection but keeps the open ones (a demoted primary
      // still up), and the pool's own backends are dropped: a fault, and the search moves the pool
      await first.refuseNew();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name <> ${APPLICATION_NAME}`.execute(
        t.db.kysely,
      );
      expect(
        await until(async () => (await inject(app, 'GET', '/api/dcim/sites/?limit=1')).statusCode === 200, 10_000),
      ).toBe(true);

      // Assert: nothing of this service is left on the first host, the watch listens through the second
      expect(await until(() => first.open === 0, 5_000), `open on the first host: ${first.open}`).toBe(true);
      expect(second.accepted).toBeGreaterThan(onSecond + 1);
      expect(await until(() => db.changes.reliable, 5_000)).toBe(true);
    } finally {
      await app.close();
      await db.close();
      await first.restore();
    }
  });

  it('does not start when no host fits, and says why for each', async () => {
    await expect(
      openDatabase({ databaseUrl: hostsUrl('target_session_attrs=standby'), dataDir: '', poolSize: 2 }),
    ).rejects.toThrow(
      `DATABASE_URL: no host is a standby server (target_session_attrs): 127.0.0.1:${first.port}: a read-write primary; 127.0.0.1:${second.port}: a read-write primary`,
    );
  });

  it('keeps its connections when a fault leaves the same host fitting', async () => {
    const db = await openDatabase({ databaseUrl: hostsUrl('target_session_attrs=any'), dataDir: '', poolSize: 2 });
    const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
    try {
      expect((await inject(app, 'GET', '/api/dcim/sites/?limit=1')).statusCode).toBe(200);
      const onSecond = second.accepted;
      const onFirst = first.accepted;
      // every backend of this database but the change watch's is terminated: a fault, same host
      const { rows } = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name <> ${APPLICATION_NAME}`.execute(
        t.db.kysely,
      );
      expect(rows[0]!.n).toBeGreaterThan(0);
      expect(
        await until(async () => (await inject(app, 'GET', '/api/dcim/sites/?limit=1')).statusCode === 200, 5_000),
      ).toBe(true);
      // the search asked both hosts (once per fault it heard of) and kept the first: the new
      // connections are the first's, and the second keeps none of the probes'
      expect(second.accepted).toBeGreaterThan(onSecond);
      expect(first.accepted).toBeGreaterThan(onFirst);
      expect(await until(() => second.open === 0, 5_000), `open on the second host: ${second.open}`).toBe(true);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
