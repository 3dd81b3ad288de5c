/**
 * A fresh service per test file, on the engine the run selected: PGlite loaded from the migrated
 * template, or a PostgreSQL database copied from the template database. Comes with a superuser
 * and its token, and small helpers around app.inject().
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createSuperuser } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { ENGINE, PG_ADMIN_URL, pgUrl, setBouncedStatementTimeout, testConnection } from './engine.js';
import { makeTempDir, removeTempDir } from './temp-dirs.js';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  /** superuser token */
  token: string;
  /** the superuser's username and password (for browser sign-in) */
  username: string;
  password: string;
  /** PostgreSQL: the test database's URL (another process could connect to it); PGlite: null */
  databaseUrl: string | null;
  request(
    method: string,
    url: string,
    opts?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  get(url: string, token?: string | null): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, token?: string | null): Promise<LightMyRequestResponse>;
  patch(url: string, body: unknown, token?: string | null): Promise<LightMyRequestResponse>;
  put(url: string, body: unknown, token?: string | null): Promise<LightMyRequestResponse>;
  del(url: string, body?: unknown, token?: string | null): Promise<LightMyRequestResponse>;
  /** a new directory in the system's temporary folder, removed when the app closes */
  tempDir(prefix: string): string;
  /** closes the app, drops its database and removes its temporary directories */
  close(): Promise<void>;
}

/**
 * The template's bytes, read once per worker: a worker keeps its modules from one file to the next
 * (vitest.config.ts, isolate false), and reading the 70 MB again took 0.1-0.3 s per test app.
 */
let templateBytes: { path: string; blob: Blob } | undefined;
export function templateBlob(path: string): Blob {
  if (templateBytes?.path !== path) templateBytes = { path, blob: new Blob([readFileSync(path)]) };
  return templateBytes.blob;
}

async function openTestDatabase(
  statementTimeout: number,
  driverPatches: boolean,
  direct: boolean,
): Promise<{ db: Database; url: string | null; drop(): Promise<void> }> {
  const template = inject('template');
  if (ENGINE === 'pglite') {
    const db = await openDatabase({ databaseUrl: null, dataDir: 'memory://', loadDataDir: templateBlob(template) });
    return { db, url: null, drop: async () => undefined };
  }
  const name = `${template.replace('inv_tpl_', 'inv_t_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  // on the PgBouncer run (vitest.config.ts, postgres-pgbouncer), through PgBouncer
  const conn = testConnection(name);
  await setBouncedStatementTimeout(name, statementTimeout);
  const db = await openDatabase({
    databaseUrl: conn.databaseUrl,
    dataDir: '',
    poolSize: 4,
    statementTimeout,
    driverPatches,
    pgbouncer: conn.pgbouncer,
    directUrl: direct ? conn.directUrl : null,
  });
  return {
    db,
    url: pgUrl(name),
    drop: async () => {
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export interface TestAppOptions {
  /** the PgBouncer run: false opens the database through PgBouncer without DATABASE_DIRECT_URL */
  directUrl?: boolean;
}

export async function makeTestApp(env: Record<string, string> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  // uploads of this app go to a folder of its own, removed with it (unless the test chose one)
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = makeTempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const ownMedia = env.MEDIA_ROOT ? null : tempDir('inv-media-');
  // PG_DRIVER_PATCHES=off runs the suite on plain pg (src/db/pg-driver/README.md)
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PG_DRIVER_PATCHES: process.env.PG_DRIVER_PATCHES,
    ...(ownMedia ? { MEDIA_ROOT: ownMedia } : {}),
    ...env,
  });
  const { db, url, drop } = await openTestDatabase(
    config.statementTimeout,
    config.pgDriverPatches,
    opts.directUrl ?? true,
  );
  const app = await buildApp(config, { db }).catch(async (e) => {
    await db.close();
    await drop();
    for (const dir of dirs) removeTempDir(dir);
    throw e;
  });
  const token = randomBytes(20).toString('hex');
  const username = `admin-${randomBytes(3).toString('hex')}`;
  const password = 'admin-password';
  await createSuperuser(db.kysely, username, password, token);
  const request: TestApp['request'] = (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const tok = opts.token === undefined ? token : opts.token;
    if (tok) headers.authorization = `Token ${tok}`;
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
    return app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(opts.body !== undefined
        ? { payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }
        : {}),
    });
  };
  return {
    app,
    db,
    token,
    username,
    password,
    databaseUrl: url,
    request,
    get: (url, tok) => request('GET', url, { token: tok }),
    post: (url, body, tok) => request('POST', url, { body, token: tok }),
    patch: (url, body, tok) => request('PATCH', url, { body, token: tok }),
    put: (url, body, tok) => request('PUT', url, { body, token: tok }),
    del: (url, body, tok) => request('DELETE', url, { body, token: tok }),
    tempDir,
    close: async () => {
      try {
        await app.close();
        await db.close();
        await drop();
      } finally {
        for (const dir of dirs) removeTempDir(dir);
      }
    },
  };
}
