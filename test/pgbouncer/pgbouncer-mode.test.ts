/**
 * The service behind PgBouncer 1.18 in transaction pooling (docs/postgresql.md, "PgBouncer"), run
 * by npm test's postgres-pgbouncer project (vitest.config.ts): concurrent writes and reads through fewer server connections
 * than the service's pool, no named statements and UTC on whichever server connection is lent, and
 * without DATABASE_DIRECT_URL migrations under a transaction's lock and correct answers with the
 * caches off.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { prepareDatabase } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { listMigrations } from '../../src/db/migrate.js';
import { NO_DIRECT_URL } from '../../src/db/pgbouncer-mode.js';
import { makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { adminQuery, ENGINE, PG_ADMIN_URL } from '../helpers/engine.js';
import { BOUNCER_POOL_SIZE } from './global-setup.js';

const bouncer = inject('pgbouncer') ?? '';

/** server backends of a database other than the change watch's LISTEN (which bypasses PgBouncer) */
async function serverBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name <> 'inventory-change-watch'`,
      [database],
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

describe.skipIf(ENGINE !== 'postgres' || !bouncer)('through PgBouncer in transaction pooling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t?.close());

  it('goes through PgBouncer, with DATABASE_DIRECT_URL listening', () => {
    expect(t.db.notices).toEqual([]);
    expect(t.db.changes.reliable).toBe(true);
  });

  it('serves concurrent writes and reads interleaved, on fewer server connections than its pool', async () => {
    const database = new URL(t.databaseUrl!).pathname.slice(1);
    const sites = await Promise.all(Array.from({ length: 4 }, () => makeSite(t)));
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const site = sites[i % sites.length]!;
        if (i % 3 === 0) return t.post('/api/dcim/sites/', { name: uniq('bounced'), slug: uniq('bounced') });
        if (i % 3 === 1) return t.patch(`/api/dcim/sites/${site.id}/`, { description: `round ${i}` });
        return t.get(`/api/dcim/sites/?id=${site.id}`);
      }),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBeLessThan(300);
    // the pool opened more client connections than PgBouncer lends server connections
    expect(t.db.pool().max).toBeGreaterThan(BOUNCER_POOL_SIZE);
    expect(t.db.pool().opened).toBeGreaterThan(BOUNCER_POOL_SIZE);
    expect(await serverBackends(database)).toBeLessThanOrEqual(BOUNCER_POOL_SIZE);
    // every write is there: 8 creates, and each site's last patch
    const created = await t.get('/api/dcim/sites/?name__isw=bounced&limit=0');
    expect(created.json().count).toBe(8);
    for (const [k, site] of sites.entries()) {
      const last = Math.max(...[1, 4, 7, 10, 13, 16, 19, 22].filter((i) => i % sites.length === k));
      expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().description).toBe(`round ${last}`);
    }
  });

  it('prepares no statement under a name on the server connections it is lent', async () => {
    for (let i = 0; i < 3; i++) expect((await t.get('/api/dcim/sites/?limit=5')).statusCode).toBe(200);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(
      t.db.kysely,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe.skipIf(ENGINE !== 'postgres' || !bouncer)('a database whose default time zone is not UTC', () => {
  const name = `inv_tz_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    await adminQuery(`alter database ${name} set timezone = 'Asia/Tokyo'`);
  });
  afterAll(() => adminQuery(`drop database if exists ${name} with (force)`));

  it('is read in UTC, the time zone sent as a startup parameter PgBouncer keeps', async () => {
    // without it, PgBouncer's server connection has the database's zone
    const plain = new pg.Client({ connectionString: `${bouncer}${name}` });
    await plain.connect();
    expect((await plain.query('show timezone')).rows[0].TimeZone).toBe('Asia/Tokyo');
    await plain.end();
    for (const driverPatches of [true, false]) {
      const db = await openDatabase({ databaseUrl: `${bouncer}${name}`, dataDir: '', pgbouncer: true, driverPatches });
      try {
        const { rows } = await sql<{ tz: string; at: string }>`select current_setting('TimeZone') as tz,
          '2026-11-30 12:00:00+00'::timestamptz as at`.execute(db.kysely);
        expect(rows[0]).toEqual({ tz: 'UTC', at: '2026-11-30T12:00:00Z' });
      } finally {
        await db.close();
      }
    }
  });
});

describe.skipIf(ENGINE !== 'postgres' || !bouncer)('without DATABASE_DIRECT_URL', () => {
  it('migrates a new database from two processes at once, each migration once', async () => {
    const name = `inv_nodirect_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    const open = () => openDatabase({ databaseUrl: `${bouncer}${name}`, dataDir: '', pgbouncer: true, poolSize: 2 });
    const [a, b] = [await open(), await open()];
    try {
      expect(a.notices).toContain(NO_DIRECT_URL);
      const applied = await Promise.all([prepareDatabase(a), prepareDatabase(b)]);
      expect(applied[0]!.length + applied[1]!.length).toBe(listMigrations().length);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from schema_migrations`.execute(a.kysely);
      expect(rows[0]!.n).toBe(listMigrations().length);
    } finally {
      await a.close();
      await b.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    }
  }, 180_000);

  describe('two service processes', () => {
    let one: TestApp;
    let other: { app: FastifyInstance; db: Database } | undefined;
    /** a request to the other process, as the superuser of `one` (they share the database) */
    const ask = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
      other!.app.inject({
        method,
        url,
        headers: { authorization: `Token ${one.token}`, 'content-type': 'application/json' },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    beforeAll(async () => {
      one = await makeTestApp({}, { directUrl: false });
      const database = new URL(one.databaseUrl!).pathname.slice(1);
      const db = await openDatabase({
        databaseUrl: `${bouncer}${database}`,
        dataDir: '',
        pgbouncer: true,
        poolSize: 4,
      });
      const config = loadConfig({ LOG_LEVEL: 'silent', MEDIA_ROOT: one.tempDir('inv-media-') });
      other = { app: await buildApp(config, { db }), db };
    });
    afterAll(async () => {
      await other?.app.close();
      await other?.db.close();
      await one?.close();
    });

    it('serve and write correctly with the caches off', async () => {
      expect(one.db.notices).toContain(NO_DIRECT_URL);
      expect(one.db.changes.reliable).toBe(false);
      expect(other!.db.changes.reliable).toBe(false);
      const before = (await one.get('/api/dcim/sites/?limit=1')).json().count as number;
      const site = await makeSite(one, { description: 'first' });
      expect((await one.get('/api/dcim/sites/?limit=1')).json().count).toBe(before + 1);
      expect((await one.get(`/api/dcim/sites/${site.id}/`)).json().description).toBe('first');
      // the other process writes: no notification reaches this one, and no cache answers for it
      expect((await ask('PATCH', `/api/dcim/sites/${site.id}/`, { description: 'second' })).statusCode).toBe(200);
      expect((await one.get(`/api/dcim/sites/${site.id}/`)).json().description).toBe('second');
      expect((await ask('POST', '/api/dcim/sites/', { name: uniq('s'), slug: uniq('s') })).statusCode).toBe(201);
      expect((await one.get('/api/dcim/sites/?limit=1')).json().count).toBe(before + 2);
      expect((await ask('GET', `/api/dcim/sites/?limit=1`)).json().count).toBe(before + 2);
    });
  });
});
