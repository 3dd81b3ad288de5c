/**
 * The service as a real child process (`node --import tsx src/cli.ts serve`, or the compiled bundle), for what only a
 * process can show: signals, a drain, a kill in the middle of a write. Its database is a copy of
 * the suite's migrated template on the suite's engine: a PostgreSQL database, or a PGlite data
 * directory on disk. Everything listens on 127.0.0.1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { ENGINE, PG_ADMIN_URL, pgUrl, setBouncedStatementTimeout, testConnection } from './engine.js';
import { freePort } from '../../bench/server.js';
import { templateBlob } from './app.js';
import { makeTempDir, removeTempDir } from './temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const CHILD_TOKEN = randomBytes(20).toString('hex');

export interface ChildDatabase {
  /** DATABASE_URL or DATA_DIR for the child */
  env: Record<string, string>;
  /** opens the same database in this process (PGlite: only while no child has it open) */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function childDatabase(): Promise<ChildDatabase> {
  const template = inject('template');
  if (ENGINE === 'pglite') {
    const dir = makeTempDir('inv-child-');
    const seed = await openDatabase({
      databaseUrl: null,
      dataDir: dir,
      loadDataDir: templateBlob(template),
    });
    await seed.close();
    return {
      env: { DATA_DIR: dir, DATABASE_URL: '' },
      open: () => openDatabase({ databaseUrl: null, dataDir: dir }),
      drop: async () => removeTempDir(dir),
    };
  }
  const name = `${template.replace('inv_tpl_', 'inv_t_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  // on the PgBouncer run (vitest.config.ts, postgres-pgbouncer), the child reaches it through PgBouncer
  const conn = testConnection(name);
  await setBouncedStatementTimeout(name, 60);
  return {
    env: conn.env,
    open: () => openDatabase({ databaseUrl: pgUrl(name), dataDir: '', poolSize: 2 }),
    drop: async () => {
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export interface ChildService {
  port: number;
  url: string;
  child: ChildProcess;
  /** resolves when the process has exited */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** what the process printed (last 20 kB) */
  output(): string;
}

/**
 * Starts `serve` on a free port and waits until it answers (the first start migrates nothing: the
 * copy is migrated). One process unless `env` says WORKERS (test/serve/ starts clusters itself).
 * The service runs as it ships (`node bin/inventory.js serve`, the compiled bundle, built once per
 * change of src/): it is what users run, and it is ready on 1.7 s of CPU where the TypeScript
 * through tsx takes 3.6. `TEST_SERVICE_TSX=1` runs src/cli.ts through tsx instead (`bundled: false`).
 */
export async function startChildService(
  db: ChildDatabase,
  env: Record<string, string> = {},
  { bundled = process.env.TEST_SERVICE_TSX !== '1' } = {},
): Promise<ChildService> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    bundled ? ['bin/inventory.js', 'serve'] : ['--import', 'tsx', 'src/cli.ts', 'serve'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...db.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        ADMIN_USERNAME: 'child-admin',
        ADMIN_PASSWORD: 'child-password',
        ADMIN_TOKEN: CHILD_TOKEN,
        WORKERS: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.once('exit', (code, signal) => ok({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(`${url}/api/`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`service did not answer within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, url, child, exited, output: () => out };
}
