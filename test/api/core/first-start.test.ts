/**
 * The first start: a new PGlite DATA_DIR filled from the snapshot is the same database a
 * cold start (initdb + migrations) makes, the spare and the copy both work, a corrupt or unusable
 * snapshot falls back, PostgreSQL never uses one, and the service started the way `npm start`
 * does answers and greets. PGlite on disk throughout (the snapshot is PGlite's), on both runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSnapshot, openPreparedDatabase, type PreparedDatabase } from '../../../src/bootstrap.js';
import { type Config, loadConfig } from '../../../src/config.js';
import type { Database } from '../../../src/db/client.js';
import { snapshotPath } from '../../../src/db/pglite-snapshot.js';
import { freePort } from '../../../bench/server.js';
import { needsPostgresServer, PG_ADMIN_URL, pgUrl } from '../../helpers/engine.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const work = makeTempDir('inv-first-start-');
const cacheDir = join(work, 'cache');
let key = '';
let cold: Awaited<ReturnType<typeof describeDatabase>>;

function configFor(name: string, extra: Partial<Config> = {}): Config {
  return { ...loadConfig({}), dataDir: join(work, name), pgliteSnapshotDir: cacheDir, ...extra };
}

/** What must not differ between two new databases: schema, constraints, content types, sequences. */
async function describeDatabase(db: Database) {
  const q = db.kysely;
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(q)).rows;
  return {
    columns:
      await rows(sql`select table_name, column_name, data_type, is_nullable, column_default, character_maximum_length
      from information_schema.columns where table_schema = 'public' order by 1, 2`),
    indexes: await rows(sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`),
    constraints: await rows(sql`select conrelid::regclass::text as rel, conname, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`),
    contentTypes: await rows(sql`select id, app_label, model from extras_contenttype order by id`),
    sequences: await rows(
      sql`select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1`,
    ),
    migrations: await rows(sql`select name from schema_migrations order by name`),
  };
}

async function openAndDescribe(
  config: Config,
): Promise<{ prepared: PreparedDatabase; state: Awaited<ReturnType<typeof describeDatabase>> }> {
  const prepared = await openPreparedDatabase(config);
  return { prepared, state: await describeDatabase(prepared.db) };
}

beforeAll(async () => {
  // the cold start: initdb and every migration in the new directory, as before the snapshot existed
  const { prepared, state } = await openAndDescribe(configFor('cold', { pgliteSnapshot: false }));
  expect(prepared.origin).toBe('initdb');
  expect(existsSync(cacheDir)).toBe(false);
  cold = state;
  await prepared.db.close();
  ({ key } = await ensureSnapshot(cacheDir));
}, 180_000);

afterAll(() => removeTempDir(work));

describe('a new PGlite DATA_DIR from the snapshot', () => {
  it('is the database a cold start makes: schema, constraints, content types and their ids, sequences', async () => {
    expect(cold.contentTypes.length).toBeGreaterThan(50);
    await ensureSnapshot(cacheDir);
    const { prepared, state } = await openAndDescribe(configFor('from-spare'));
    expect(prepared.origin).toBe('snapshot');
    expect(existsSync(join(snapshotPath(cacheDir, key), 'spare'))).toBe(false);
    expect(prepared.snapshotProblem).toBeNull();
    expect(state).toEqual(cold);
    await prepared.db.close();
  });

  it('takes the spare by a rename and makes a new one after the start', async () => {
    const spare = join(snapshotPath(cacheDir, key), 'spare');
    await ensureSnapshot(cacheDir);
    expect(existsSync(spare)).toBe(true);
    const { prepared } = await openAndDescribe(configFor('takes-spare'));
    expect(existsSync(spare)).toBe(false);
    await prepared.afterStart();
    expect(existsSync(join(spare, 'PG_VERSION'))).toBe(true);
    await prepared.db.close();
  });

  it('copies the snapshot when there is no spare, to the same database', async () => {
    rmSync(join(snapshotPath(cacheDir, key), 'spare'), { recursive: true, force: true });
    const { prepared, state } = await openAndDescribe(configFor('copied'));
    expect(prepared.origin).toBe('snapshot');
    expect(state).toEqual(cold);
    await prepared.db.close();
  });

  it('a restart changes no sequence (content types are synced without drawing ids)', async () => {
    const { prepared } = await openAndDescribe(configFor('copied'));
    expect(prepared.origin).toBe('existing');
    expect(await describeDatabase(prepared.db)).toEqual(cold);
    await prepared.db.close();
  });

  it('a corrupt snapshot is built again, and the start still gets the cold start database', async () => {
    rmSync(join(snapshotPath(cacheDir, key), 'spare'), { recursive: true, force: true });
    const manifest = JSON.parse(readFileSync(join(snapshotPath(cacheDir, key), 'manifest.json'), 'utf8')) as {
      files: [string, number][];
    };
    const victim = manifest.files.find(([f, size]) => f.startsWith('base/') && size > 8192)![0];
    truncateSync(join(snapshotPath(cacheDir, key), 'data', victim), 100);
    const { prepared, state } = await openAndDescribe(configFor('after-corrupt'));
    expect(prepared.snapshotProblem).toContain(`${victim} is not`);
    expect(prepared.origin).toBe('snapshot');
    expect(state).toEqual(cold);
    await prepared.db.close();
    // the rebuilt snapshot is whole again
    const rebuilt = JSON.parse(readFileSync(join(snapshotPath(cacheDir, key), 'manifest.json'), 'utf8')) as {
      files: [string, number][];
    };
    expect(rebuilt.files.find(([f]) => f === victim)![1]).toBeGreaterThan(100);
  }, 180_000);

  it('falls back to initdb when the snapshot folder cannot be used', async () => {
    const blocker = join(work, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const { prepared, state } = await openAndDescribe(
      configFor('unusable-cache', { pgliteSnapshotDir: join(blocker, 'cache') }),
    );
    expect(prepared.origin).toBe('initdb');
    expect(prepared.snapshotProblem).toMatch(/PGlite snapshot unusable .*running initdb/);
    expect(state).toEqual(cold);
    await prepared.db.close();
  }, 180_000);
});

describe('PostgreSQL', async () => {
  const server = await needsPostgresServer();
  it.runIf(server.available)(
    `never uses the snapshot${server.reason}`,
    async () => {
      const name = `inv_first_start_${process.pid}`;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name}`);
      try {
        const config = { ...configFor('unused'), databaseUrl: pgUrl(name), pgliteSnapshotDir: join(work, 'pg-cache') };
        const prepared = await openPreparedDatabase(config);
        expect(prepared.origin).toBe('postgres');
        expect(existsSync(config.pgliteSnapshotDir)).toBe(false);
        expect(existsSync(config.dataDir)).toBe(false);
        expect((await describeDatabase(prepared.db)).contentTypes).toEqual(cold.contentTypes);
        await prepared.db.close();
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    120_000,
  );
});

describe('npm start on a new DATA_DIR', () => {
  it('answers, prints where it listens and the generated password, and keeps stdout to JSON lines', async () => {
    const port = await freePort();
    const dataDir = join(work, 'served');
    const child = spawn(process.execPath, ['bin/inventory.js', 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        PGLITE_SNAPSHOT_DIR: cacheDir,
        ADMIN_USERNAME: '',
        ADMIN_PASSWORD: '',
        ADMIN_TOKEN: '',
        LOG_LEVEL: 'info',
        LOG_FORMAT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    try {
      const until = Date.now() + 120_000;
      let status = 0;
      while (status !== 200) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`no answer:\n${out}\n${err}`);
        status = await fetch(`http://127.0.0.1:${port}/api/status/`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(err).toContain(`http://127.0.0.1:${port}/api/\n`);
      expect(err).toContain(`PGlite (embedded PostgreSQL) in ${dataDir} (new, copied from the prepared snapshot)`);
      const password = /Sign in as "admin" with password (\S+)/.exec(err)?.[1];
      expect(password).toBeDefined();
      // the printed password is the superuser's: it provisions a token
      const provision = await fetch(`http://127.0.0.1:${port}/api/users/tokens/provision/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(provision.status).toBe(201);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const lines = out.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.some((l) => (JSON.parse(l) as { url?: string }).url === '/api/status/')).toBe(true);
    expect(out).not.toContain(/password (\S+)/.exec(err)![1]!);
  }, 180_000);
});
