/**
 * Starts the service as a child process on a free loopback port against a fresh database, and
 * tears both down. Measures nothing itself; it makes each engine's run start from the same empty
 * state (PostgreSQL: a new database inv_bench_<pid>; PGlite: a new temp DATA_DIR) so figures are
 * comparable and repeatable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { servingProcessEnv } from '../src/serve/malloc-arenas.js';

export const ROOT = resolve(import.meta.dirname, '..');
export const TOKEN = '0123456789abcdef0123456789abcdef01234567';
/** the superuser the service creates at its first start (ADMIN_*), for scripts that sign in (ui.ts) */
export const ADMIN_USERNAME = 'bench';
export const ADMIN_PASSWORD = 'bench-password';

export interface Server {
  engine: 'postgres' | 'pglite';
  url: string;
  /** the process started (with serve --workers N, the cluster primary; cpu-meter.ts counts its workers too) */
  pid: number;
  /** PostgreSQL: the bench database's name (null on PGlite) */
  database: string | null;
  /** PostgreSQL: VACUUM ANALYZE the fresh database (PGlite: no-op, its files belong to the server) */
  analyze(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface StartOptions {
  engine: 'postgres' | 'pglite';
  pgUrl: string;
  cpuProfDir?: string;
  traceSqlFile?: string;
  /** more environment for the service (settings) */
  env?: Record<string, string>;
  /**
   * PostgreSQL: serve this existing database (several processes on one database, soak.ts); it is
   * neither created nor dropped here
   */
  database?: string;
  /** PostgreSQL: leave the fresh database in place when the service stops (bench --keep-db) */
  keepDatabase?: boolean;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

export async function adminQuery(pgUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

let keptDatabases = 0;

/** A fresh database for one engine; returns the child's env additions and a cleanup. */
async function freshDatabase(opts: StartOptions): Promise<{
  name: string | null;
  env: Record<string, string>;
  drop: () => Promise<void>;
  analyze: () => Promise<boolean>;
}> {
  if (opts.engine === 'postgres' && opts.database) {
    const url = new URL(opts.pgUrl);
    url.pathname = `/${opts.database}`;
    return {
      name: opts.database,
      env: { DATABASE_URL: url.toString() },
      drop: async () => undefined,
      analyze: async () => {
        await adminQuery(url.toString(), 'analyze');
        return true;
      },
    };
  }
  if (opts.engine === 'postgres') {
    // a kept database is not dropped by the next run's start: each gets its own name
    const name = `inv_bench_${process.pid}${opts.keepDatabase ? `_${++keptDatabases}` : ''}`;
    await adminQuery(opts.pgUrl, `drop database if exists ${name}`);
    await adminQuery(opts.pgUrl, `create database ${name}`);
    const url = new URL(opts.pgUrl);
    url.pathname = `/${name}`;
    return {
      name,
      env: { DATABASE_URL: url.toString() },
      drop: async () =>
        opts.keepDatabase
          ? console.log(`   kept database ${name}`)
          : adminQuery(opts.pgUrl, `drop database if exists ${name} with (force)`),
      // vacuum too: a bulk load leaves the visibility map empty, so no index-only scan skips the
      // heap until autovacuum comes by (scale data set: a sites page 11 ms -> 2 ms once vacuumed).
      // Then a checkpoint: the scale set's 1.7 million rows (and the vacuum's hint bits) leave
      // gigabytes of dirty pages, which a spread checkpoint and the kernel's writeback would write
      // while requests are measured; CHECKPOINT writes and syncs them now.
      analyze: async () => {
        await adminQuery(url.toString(), 'vacuum analyze');
        await adminQuery(url.toString(), 'checkpoint');
        return true;
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'inv-bench-'));
  return {
    name: null,
    env: { DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
    analyze: async () => false,
  };
}

async function waitReady(url: string, child: ChildProcess, stderr: () => string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering:\n${stderr()}`);
    try {
      const res = await fetch(`${url}/api/`, {
        headers: { Authorization: `Token ${TOKEN}` },
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url}/api/ within ${timeoutMs / 1000}s:\n${stderr()}`);
}

export async function startServer(opts: StartOptions): Promise<Server> {
  const db = await freshDatabase(opts);
  const port = await freePort();
  // started as `npm start` starts it (package.json: the compiled entry, young-generation size and
  // malloc arenas included), so CPU and peak memory are the service's own; --trace-sql hooks the
  // driver from TypeScript, so that run goes through tsx
  const nodeArgs = ['--max-semi-space-size=16'];
  if (opts.traceSqlFile) nodeArgs.push('--import', 'tsx', '--import', join(ROOT, 'bench/trace-sql.ts'));
  if (opts.cpuProfDir) nodeArgs.push('--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir);
  // V8 samples every 1,000 us by default: too few samples to split a short run's hot paths
  if (opts.cpuProfDir && process.env.BENCH_CPU_PROF_INTERVAL_US)
    nodeArgs.push('--cpu-prof-interval', process.env.BENCH_CPU_PROF_INTERVAL_US);
  const entry = opts.traceSqlFile ? 'src/cli.ts' : 'bin/inventory.js';
  const child = spawn(process.execPath, [...nodeArgs, entry, 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...servingProcessEnv(),
      ...db.env,
      ...(opts.engine === 'pglite' ? { DATABASE_URL: '' } : {}),
      ...(opts.traceSqlFile ? { BENCH_TRACE_SQL: opts.traceSqlFile } : {}),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      ADMIN_TOKEN: TOKEN,
      // one process unless asked (serve would run one per core on PostgreSQL): figures stay comparable
      WORKERS: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const keep = (b: Buffer) => (err = (err + b.toString()).slice(-8000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  let stopping = false;
  child.once('exit', (code, signal) => {
    // a crash mid-run must not look like a slow server
    if (!stopping)
      console.error(
        `!! server pid ${child.pid} exited unexpectedly (code ${code}, signal ${signal}); last output:\n${err}`,
      );
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await db.drop();
  };
  try {
    await waitReady(url, child, () => err);
  } catch (e) {
    await stop();
    throw e;
  }
  return { engine: opts.engine, url, pid: child.pid!, database: db.name, analyze: db.analyze, stop };
}
