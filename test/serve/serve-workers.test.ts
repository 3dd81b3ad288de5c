/**
 * `inventory serve --workers N` as real processes (src/serve/README.md, docs/postgresql.md):
 * on a fresh PostgreSQL database the primary migrates once and greets once, two worker processes
 * answer on one port, /metrics sums them, a worker killed with SIGKILL is replaced, and SIGTERM to
 * the primary drains a write in flight and exits 0. On PGlite `--workers 2` runs one process and
 * says why. Everything listens on 127.0.0.1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/server.js';
import { listMigrations } from '../../src/db/migrate.js';
import { adminQuery, needsPostgresServer, pgUrl } from '../helpers/engine.js';
import { parseExposition } from '../helpers/prometheus.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = randomBytes(20).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Service {
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** `node bin/inventory.js serve <args>` on a free port, once it answers */
async function startServe(args: string[], env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  // started as a supervisor would start it: without the malloc bound npm start sets (the primary adds it)
  const { MALLOC_ARENA_MAX: _, ...inherited } = process.env;
  const child = spawn(process.execPath, ['bin/inventory.js', 'serve', ...args], {
    cwd: ROOT,
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ADMIN_USERNAME: 'cluster-admin',
      ADMIN_TOKEN: TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.once('exit', (code, signal) => ok({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  // the greeting is printed once every worker listens
  while (!out.includes('netinventory is ready')) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start within 60 s:\n${out}`);
    }
    await sleep(100);
  }
  return { url, child, exited, output: () => out };
}

/** the pids of the worker processes (Linux: the children of the primary running the CLI) */
function workerPids(primary: number): number[] {
  const pids = readdirSync(`/proc/${primary}/task`).flatMap((t) =>
    readFileSync(`/proc/${primary}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('inventory.js');
    } catch {
      return false;
    }
  });
}

/** one GET on a connection of its own, so the cluster hands each to the next worker */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = request(
      url,
      { agent: false, headers: { authorization: `Token ${TOKEN}`, accept: 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => ok(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.end();
  });
}

async function scrape(url: string) {
  const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

/**
 * the log records (one JSON line each) whose msg is `msg`. Three processes write to one pipe, and
 * the primary's greeting is several writes: a loaded host can interleave a worker's line into it,
 * so a line that is not whole JSON is skipped (the counts asserted on the records still hold).
 */
function logged(output: string, msg: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    })
    .filter((r) => r.msg === msg);
}

const server = await needsPostgresServer();

describe.runIf(server.available)(`serve --workers 2 on PostgreSQL${server.reason}`, () => {
  const name = `inv_t_cluster_${randomBytes(4).toString('hex')}`;
  let svc: Service;
  let primaryPid: number;
  beforeAll(async () => {
    // a fresh, empty database: the start migrates it
    await adminQuery(`create database ${name}`);
    svc = await startServe(['--workers', '2'], { DATABASE_URL: pgUrl(name) });
    primaryPid = svc.child.pid!;
  }, 90_000);
  afterAll(async () => {
    svc?.child.kill('SIGKILL');
    await svc?.exited;
    await adminQuery(`drop database if exists ${name} with (force)`);
  });

  it('migrates once, in the primary, before the workers start, and greets once', async () => {
    const migrated = logged(svc.output(), 'applied migrations');
    expect(migrated, svc.output().slice(0, 4000)).toHaveLength(1);
    expect(migrated[0]!.pid).toBe(primaryPid);
    expect(migrated[0]!.applied).toBe(listMigrations().length);
    const listening = logged(svc.output(), `Server listening at ${svc.url}`);
    expect(listening, svc.output().slice(0, 4000)).toHaveLength(2);
    expect(listening.every((r) => Number(r.time) > Number(migrated[0]!.time))).toBe(true);
    expect(svc.output().split('netinventory is ready')).toHaveLength(2);
    expect(svc.output()).toContain('processes  2 workers on one port');
    expect(logged(svc.output(), 'created the first superuser')).toHaveLength(1);
  });

  it("bounds its workers' malloc arenas (src/serve/malloc-arenas.ts); the primary was started without", () => {
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environ(primaryPid).some((v) => v.startsWith('MALLOC_ARENA_MAX='))).toBe(false);
    const workers = workerPids(primaryPid);
    expect(workers).toHaveLength(2);
    for (const pid of workers) expect(environ(pid)).toContain('MALLOC_ARENA_MAX=2');
  });

  it('answers from two worker processes, and /metrics sums them', async () => {
    expect(workerPids(primaryPid)).toHaveLength(2);
    const before = await scrape(svc.url);
    expect(before.value('inventory_cluster_workers', { state: 'answered' })).toBe(2);
    const K = 40;
    for (let i = 0; i < K; i++) expect(await getOnNewConnection(`${svc.url}/api/dcim/sites/`)).toBe(200);
    const after = await scrape(svc.url);
    // the first scrape is counted once it is answered, the second is not yet
    const grew = (m: typeof before, n: string, l?: Record<string, string>) => after.value(n, l) - m.value(n, l);
    expect(grew(before, 'django_http_requests_total_by_method_total', { method: 'GET' })).toBe(K + 1);
    expect(grew(before, 'django_http_requests_latency_including_middlewares_seconds_count')).toBe(K + 1);
    expect(grew(before, 'django_http_requests_latency_including_middlewares_seconds_bucket', { le: '+Inf' })).toBe(
      K + 1,
    );
    const perWorker = ['1', '2'].map((w) => grew(before, 'inventory_cluster_worker_requests_total', { worker: w }));
    // round-robin over new connections: both workers served, together every request
    expect(
      perWorker.every((n) => n > 0),
      `per worker: ${perWorker}`,
    ).toBe(true);
    expect(perWorker[0]! + perWorker[1]!).toBe(K + 1);
    // the database-wide gauge is one figure, not one per worker
    const created = await fetch(`${svc.url}/api/dcim/sites/`, {
      method: 'POST',
      headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify([1, 2, 3].map((i) => ({ name: `cluster-site-${i}`, slug: `cluster-site-${i}` }))),
    });
    expect(created.status).toBe(201);
    // once PostgreSQL's statistics show the 3 rows (a backend publishes them within a second or so)
    const stats = new pg.Client({ connectionString: pgUrl(name) });
    await stats.connect();
    try {
      for (let i = 0; i < 100; i++) {
        const res = await stats.query(
          `select n_live_tup::int as n from pg_stat_user_tables where relname = 'dcim_site'`,
        );
        if (res.rows[0]?.n === 3) break;
        await sleep(100);
      }
    } finally {
      await stats.end();
    }
    expect((await scrape(svc.url)).value('inventory_model_objects', { model: 'dcim.site' })).toBe(3);
  });

  it('answers a scrape within its timeout while a worker does not respond, leaving that worker out', async () => {
    const [stuck] = workerPids(primaryPid);
    process.kill(stuck!, 'SIGSTOP');
    try {
      // round-robin may hand a scrape's own connection to the stopped worker: try a few
      let answered: { ms: number; workers: number } | null = null;
      for (let i = 0; i < 4 && !answered; i++) {
        const t0 = Date.now();
        const res = await fetch(`${svc.url}/metrics`, { signal: AbortSignal.timeout(4_000) }).catch(() => null);
        if (res?.status === 200)
          answered = {
            ms: Date.now() - t0,
            workers: parseExposition(await res.text()).value('inventory_cluster_workers', { state: 'answered' }),
          };
      }
      expect(answered).not.toBeNull();
      expect(answered!.workers).toBe(1);
      // COLLECT_TIMEOUT_MS (2 s) and a little
      expect(answered!.ms).toBeLessThan(3_500);
    } finally {
      process.kill(stuck!, 'SIGCONT');
    }
    const back = await scrape(svc.url);
    expect(back.value('inventory_cluster_workers', { state: 'answered' })).toBe(2);
  }, 30_000);

  it('replaces a worker killed with SIGKILL and keeps serving', async () => {
    const [victim, survivor] = workerPids(primaryPid);
    process.kill(victim!, 'SIGKILL');
    // once the primary knows (a connection handed to the worker in the instant it died is lost with
    // it, as in Node's cluster, src/serve/README.md), the survivor answers while the new one starts
    for (
      let i = 0;
      i < 100 && logged(svc.output(), 'a worker process ended unexpectedly; starting another').length === 0;
      i++
    )
      await sleep(20);
    expect(await getOnNewConnection(`${svc.url}/api/`)).toBe(200);
    let pids: number[] = [];
    for (let i = 0; i < 100; i++) {
      pids = workerPids(primaryPid);
      if (
        pids.length === 2 &&
        !pids.includes(victim!) &&
        logged(svc.output(), `Server listening at ${svc.url}`).length === 3
      )
        break;
      await sleep(100);
    }
    expect(pids).toContain(survivor);
    expect(pids).not.toContain(victim);
    expect(pids).toHaveLength(2);
    const m = await scrape(svc.url);
    expect(m.value('inventory_cluster_worker_restarts_total')).toBe(1);
    expect(m.value('inventory_cluster_workers', { state: 'answered' })).toBe(2);
    const died = logged(svc.output(), 'a worker process ended unexpectedly; starting another');
    expect(died).toHaveLength(1);
    expect(died[0]).toMatchObject({ workerPid: victim, signal: 'SIGKILL' });
    for (let i = 0; i < 6; i++) expect(await getOnNewConnection(`${svc.url}/api/dcim/sites/`)).toBe(200);
  });

  it('drains on SIGTERM to the primary: the write in flight is answered, then every process exits, the primary with 0', async () => {
    const N = 3_000;
    const body = JSON.stringify(Array.from({ length: N }, (_, i) => ({ name: `drain-${i}`, slug: `drain-${i}` })));
    const pending = fetch(`${svc.url}/api/tenancy/tenants/`, {
      method: 'POST',
      headers: { authorization: `Token ${TOKEN}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(60_000),
    }).then(async (r) => ({ status: r.status, rows: ((await r.json()) as unknown[]).length }));
    // wait until the write has written and not committed
    const watcher = new pg.Client({ connectionString: pgUrl(name) });
    await watcher.connect();
    const until = Date.now() + 30_000;
    for (;;) {
      const res =
        await watcher.query(`select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        and backend_xid is not null and state in ('active', 'idle in transaction')`);
      if (res.rows.length > 0) break;
      if (Date.now() > until) throw new Error('the bulk write never started writing');
      await sleep(5);
    }
    const workers = workerPids(primaryPid);
    svc.child.kill('SIGTERM');
    expect(await pending).toEqual({ status: 201, rows: N });
    expect(await svc.exited, svc.output()).toEqual({ code: 0, signal: null });
    const stored = await watcher.query(`select count(*)::int as n from tenancy_tenant where name like 'drain-%'`);
    await watcher.end();
    expect(stored.rows[0].n).toBe(N);
    for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid} still runs`).toThrow();
    expect(logged(svc.output(), 'draining requests in flight, then stopping')).toHaveLength(2);
  }, 90_000);
});

describe.runIf(server.available)(`serve --workers 2 whose primary is killed${server.reason}`, () => {
  it('leaves no worker behind: each ends when its IPC channel to the primary closes', async () => {
    const name = `inv_t_cluster_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    const svc = await startServe(['--workers', '2'], { DATABASE_URL: pgUrl(name), LOG_LEVEL: 'warn' });
    try {
      const workers = workerPids(svc.child.pid!);
      expect(workers).toHaveLength(2);
      svc.child.kill('SIGKILL');
      await svc.exited;
      const alive = () => workers.filter((pid) => existsSync(`/proc/${pid}`));
      for (let i = 0; i < 100 && alive().length > 0; i++) await sleep(100);
      expect(alive()).toEqual([]);
    } finally {
      svc.child.kill('SIGKILL');
      await adminQuery(`drop database if exists ${name} with (force)`);
    }
  }, 60_000);
});

describe('serve --workers 2 on PGlite', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('inv-cluster-');
  });
  afterAll(() => removeTempDir(dir));

  it('runs one process and says why (two processes would corrupt the data directory)', async () => {
    const svc = await startServe(['--workers', '2'], { DATA_DIR: dir, DATABASE_URL: '' });
    try {
      expect(svc.output()).toContain(
        'WORKERS=2 ignored: the embedded PGlite database can be opened by one process only',
      );
      expect(workerPids(svc.child.pid!)).toEqual([]);
      const m = await scrape(svc.url);
      // no primary, no aggregation: the single-process exposition
      expect(m.types.has('inventory_cluster_workers')).toBe(false);
      expect(m.value('inventory_db_connections_max')).toBe(1);
      expect(await getOnNewConnection(`${svc.url}/api/`)).toBe(200);
    } finally {
      svc.child.kill('SIGTERM');
      expect(await svc.exited).toEqual({ code: 0, signal: null });
    }
  }, 90_000);
});
