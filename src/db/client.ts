/**
 * Opens the database: PGlite (embedded, data in DATA_DIR) by default, PostgreSQL when DATABASE_URL
 * is set. Both are driven through Kysely with PostgreSQL SQL, so the rest of the code never asks
 * which engine it runs on, except to choose concurrency (PGlite runs one query at a time).
 */
import { lockDataDir } from './data-dir-lock.js';
import { mkdirSync } from 'node:fs';
import { type CompiledQuery, Kysely, type LogEvent, PostgresDialect, sql } from 'kysely';
import { type ConnectionUse, PGliteDialect } from './pglite-dialect.js';
import { startAnalyzeAfterLoad } from './analyze-after-load.js';
import { startMaintenance } from './pglite-maintenance.js';
import { sharedAsk } from './shared-ask.js';
import { type ChangeWatch, localChangeWatch, postgresChangeWatch, whenReliable } from './change-watch.js';
import { openPgPool } from './pg-driver/index.js';
import { FailoverPool } from './failover/failover-pool.js';
import { parseHostList } from './failover/hosts.js';
import { ReplicaSet } from './replicas/replica-set.js';
import { sessionWork } from './session-work.js';
import { pgbouncerNotices } from './pgbouncer-mode.js';

export { COMMIT_FOLLOWS } from './pg-driver/index.js';

// biome-ignore lint/suspicious/noExplicitAny: the tables are declared by the models at run time, not to Kysely
export type Kdb = Kysely<any>;

/** Sees each statement once it ran: its duration in ms, and its error when it failed. */
/** `query`: the statement as sent, with its parameters */
type StatementListener = (durationMs: number, error: unknown, query: CompiledQuery) => void;

/** The connections of the engine (PGlite: its single one). */
interface PoolState {
  max: number;
  /** open now, busy or idle */
  open: number;
  idle: number;
  /** callers waiting for a connection */
  waiting: number;
  /** connections opened since the start */
  opened: number;
}

export interface Database {
  kysely: Kdb;
  engine: 'pglite' | 'postgres';
  /** true when independent queries may run at the same time (PostgreSQL pool) */
  concurrent: boolean;
  /** runs a multi-statement SQL script (migrations) */
  exec(script: string): Promise<void>;
  /** runs `work` holding advisory lock `key` against every other process (PGlite: one process, no lock) */
  holdingLock<T>(key: number, work: () => Promise<T>): Promise<T>;
  /** what the start should log about how the database is used (PgBouncer without a direct URL) */
  notices: string[];
  close(): Promise<void>;
  /** statements executed so far (tests check that a list costs a constant number of them) */
  stats: { queries: number };
  /** calls the listener after every statement (metrics); returns the function that removes it */
  observeStatements(listener: StatementListener): () => void;
  /** the connections now: PostgreSQL's pool, or PGlite's one connection and its queue */
  pool(): PoolState;
  /** the data generation read caches check (change-watch.ts) */
  changes: ChangeWatch;
  /**
   * A token that differs whenever committed data may differ (core/cache/response-cache.ts).
   * PostgreSQL: the current snapshot (`xmin:xmax:in-progress`), which moves with every commit of a
   * writing transaction from any client; PGlite: the data generation, since the embedded database
   * belongs to this process and every statement passes through its observer.
   */
  dataVersion(): Promise<string>;
  /** PostgreSQL with DATABASE_REPLICA_URLS: where reads outside a transaction go (replicas/README.md) */
  replicas?: ReplicaSet;
  /** PGlite only: the data directory as a tarball (test templates) */
  dump?(): Promise<Blob>;
}

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite only: start from a dumped data directory (tests use a migrated template) */
  loadDataDir?: Blob;
  poolSize?: number;
  /** PostgreSQL: seconds before the server cancels a statement (STATEMENT_TIMEOUT); 0 = none */
  statementTimeout?: number;
  /** PostgreSQL: pg with the driver's patches (pg-driver/README.md), or plain pg; on unless false */
  driverPatches?: boolean;
  /** PostgreSQL: streaming standbys for reads (DATABASE_REPLICA_URLS, replicas/README.md) */
  replicaUrls?: readonly string[];
  /** PostgreSQL: a replica further behind than this (ms) serves no reads (DATABASE_REPLICA_MAX_LAG_MS) */
  replicaMaxLagMs?: number;
  /** PostgreSQL: the URLs lead to a transaction-pooling PgBouncer (DATABASE_PGBOUNCER, pgbouncer-mode.ts) */
  pgbouncer?: boolean;
  /** PgBouncer mode: the server itself, for LISTEN, session locks and migrations (DATABASE_DIRECT_URL) */
  directUrl?: string | null;
}

/** Kysely's log hook sees every statement once it ran, begin/commit/rollback included. */
function observer(stats: { queries: number }, changes: ChangeWatch, listeners: Set<StatementListener>) {
  return (event: LogEvent) => {
    stats.queries++;
    changes.observe(event.query.sql);
    if (listeners.size === 0) return;
    const error = event.level === 'error' ? event.error : undefined;
    for (const listener of listeners) listener(event.queryDurationMillis, error, event.query);
  };
}

function addTo(listeners: Set<StatementListener>) {
  return (listener: StatementListener) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts) : openPglite(opts);
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  // trigram indexes of the address search (migration 0146)
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const inMemory = opts.dataDir === 'memory://';
  if (!inMemory) mkdirSync(opts.dataDir, { recursive: true });
  // one process per directory: a second opener is refused, not allowed to corrupt it
  const unlock = inMemory ? () => undefined : lockDataDir(opts.dataDir);
  let pglite: Awaited<ReturnType<typeof PGlite.create>>;
  try {
    pglite = await PGlite.create(inMemory ? undefined : opts.dataDir, {
      extensions: { pg_trgm },
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  await pglite.exec(`set time zone 'UTC'`);
  const stats = { queries: 0 };
  const changes = localChangeWatch();
  const listeners = new Set<StatementListener>();
  const use: ConnectionUse = { inUse: 0, waiting: 0 };
  const kysely: Kdb = new Kysely({ dialect: new PGliteDialect(pglite, use), log: observer(stats, changes, listeners) });
  // through Kysely's connection so the single-connection mutex is respected
  const exec = (script: string) =>
    kysely.connection().execute(async () => {
      await pglite.exec(script);
      changes.observeScript(script);
    });
  // PGlite has no autovacuum worker (pglite-maintenance.ts); a failed round is retried next time
  const stopMaintenance = startMaintenance({ kysely, exec, changes }, () => undefined);
  return {
    kysely,
    stats,
    changes,
    engine: 'pglite',
    concurrent: false,
    observeStatements: addTo(listeners),
    pool: () => ({ max: 1, open: 1, idle: 1 - use.inUse, waiting: use.waiting, opened: 1 }),
    dataVersion: async () => `g${changes.generation}`,
    exec,
    holdingLock: (_key, work) => work(),
    notices: [],
    close: async () => {
      stopMaintenance();
      try {
        await kysely.destroy();
      } finally {
        unlock();
      }
    },
    // after a checkpoint, so an instance loaded from the dump starts without replaying the WAL
    // written since the last one: 0.9 -> 0.6 s to open the tests' migrated template
    dump: () =>
      kysely.connection().execute(async () => {
        await pglite.exec('checkpoint');
        return pglite.dumpDataDir('none');
      }),
  };
}

async function openPostgres(url: string, opts: OpenOptions): Promise<Database> {
  const max = opts.poolSize ?? 10;
  const statementTimeoutSec = opts.statementTimeout ?? 0;
  const patches = opts.driverPatches ?? true;
  const pgbouncer = opts.pgbouncer ?? false;
  const directUrl = pgbouncer ? (opts.directUrl ?? null) : null;
  let opened = 0;
  const makePool = (hostUrl: string) => {
    const p = openPgPool({ url: hostUrl, max, statementTimeoutSec, patches, pgbouncer });
    p.on('connect', () => void opened++);
    // an idle connection dropped by the server is a fault the search for the primary hears of too
    p.on('error', (e) => failover?.noticeError(e));
    return p;
  };
  // several hosts (libpq's form): a pool for the host found, changed after a failover (failover/README.md)
  const hosts = parseHostList(url);
  const failover = hosts ? new FailoverPool(hosts, makePool) : null;
  if (failover) {
    await failover.start();
  }
  const single = failover ? null : makePool(url);
  const pool = failover ?? single!;
  const target = failover ? () => failover.currentUrl() : () => url;
  const counts = () => failover?.pool ?? single;
  const stats = { queries: 0 };
  // behind PgBouncer, LISTEN needs the server itself; without it, no listening and no caches
  const listenOn = pgbouncer ? directUrl : target;
  const changes = postgresChangeWatch(listenOn, (e) => failover?.noticeError(e));
  // a demoted primary that stays up keeps the watch's connection: move it with the pool
  if (failover) failover.onSwitch = () => changes.follow();
  const listeners = new Set<StatementListener>();
  // a statement that failed for want of a server (or on a read-only one) starts the search for the primary
  if (failover) listeners.add((_ms, error) => error !== undefined && failover.noticeError(error));
  const log = observer(stats, changes, listeners);
  const kysely: Kdb = new Kysely({ dialect: new PostgresDialect({ pool }), log });
  // none configured: no replica code runs, so a read costs what it did without them
  const replicaUrls = opts.replicaUrls ?? [];
  const replicas =
    replicaUrls.length > 0
      ? new ReplicaSet({
          replicas: replicaUrls.map((u) => ({
            url: u,
            pool: openPgPool({ url: u, max, statementTimeoutSec, patches, pgbouncer }),
          })),
          maxLagMs: opts.replicaMaxLagMs ?? 5_000,
          primary: pool,
          log,
        })
      : undefined;
  await sql`select 1`.execute(kysely);
  const notices = pgbouncer ? await pgbouncerNotices(kysely, directUrl, statementTimeoutSec) : [];
  if (listenOn) await whenReliable(changes);
  // statistics within seconds of a load, not autovacuum's minute (analyze-after-load.ts)
  const stopAnalyze = startAnalyzeAfterLoad(directUrl ? () => directUrl : target, changes, () => undefined);
  const sessions = sessionWork({ pool, url: target, pgbouncer, directUrl });
  return {
    kysely,
    stats,
    changes,
    engine: 'postgres',
    concurrent: true,
    ...(replicas ? { replicas } : {}),
    observeStatements: addTo(listeners),
    pool: () => {
      const p = counts();
      return { max, open: p?.totalCount ?? 0, idle: p?.idleCount ?? 0, waiting: p?.waitingCount ?? 0, opened };
    },
    dataVersion: sharedAsk(
      async () => (await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(kysely)).rows[0]!.v,
    ),
    // scripts are migrations: no statement timeout (session-work.ts)
    exec: (script) => sessions.exec(script).finally(() => changes.observeScript(script)),
    holdingLock: (key, work) => sessions.holdingLock(key, work),
    notices,
    close: async () => {
      stopAnalyze();
      await changes.close();
      await replicas?.close();
      await kysely.destroy();
    },
  };
}
