/**
 * Opens the database: PGlite (embedded, data in DATA_DIR) by default, PostgreSQL when DATABASE_URL
 * is set. Both are driven through Kysely with PostgreSQL SQL, so the rest of the code never asks
 * which engine it runs on, except to choose concurrency (PGlite runs one query at a time).
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type CompiledQuery, Kysely, type LogEvent, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type ConnectionUse, PGliteDialect } from './pglite-dialect.js';
import { startMaintenance } from './pglite-maintenance.js';
import { sharedAsk } from './shared-ask.js';
import { worthNaming } from './statement-names.js';
import { type ChangeWatch, localChangeWatch, postgresChangeWatch, whenReliable } from './change-watch.js';
import { typeParsers } from './type-parsers.js';
import { rowsAsObjects } from './row-builders.js';
import { installDescribedOnce } from './pg-described-once.js';
import { installQueryConfigCopy } from './pg-query-config.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Kdb = Kysely<any>;

/** Sees each statement once it ran: its duration in ms, and its error when it failed. */
/** `query`: the statement as sent, with its parameters */
export type StatementListener = (durationMs: number, error: unknown, query: CompiledQuery) => void;

/** The connections of the engine (PGlite: its single one). */
export interface PoolState {
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
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.poolSize ?? 10, opts.statementTimeout ?? 0)
    : openPglite(opts);
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  // trigram indexes of the address search (migration 0146)
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const inMemory = opts.dataDir === 'memory://';
  if (!inMemory) mkdirSync(opts.dataDir, { recursive: true });
  const pglite = await PGlite.create(inMemory ? undefined : opts.dataDir, {
    extensions: { pg_trgm },
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
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
    close: () => {
      stopMaintenance();
      return kysely.destroy();
    },
    dump: () => kysely.connection().execute(() => pglite.dumpDataDir('none')),
  };
}

/**
 * Pool clients: named prepared statements, and an error listener for the whole life of each.
 * Named prepared statements (statement-names.ts): bench/ measured ~3x PostgreSQL throughput on the
 * detail statements. Names come from a hash of the text, the same on every pool connection.
 */
const statementNames = new Map<string, string>();

function nameFor(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name) return name;
  if (!worthNaming(text, statementNames.size)) return undefined;
  name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  statementNames.set(text, name);
  return name;
}

/**
 * An array of integers (the ids of `id = any($1::bigint[])`, on every page) as its array literal.
 * pg writes each element quoted and escaped through two regular expressions: issue 15 found that a
 * tenth of a page's allocations. Anything else goes to pg as it is.
 */
export function idArrayLiteral(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  for (const v of value) if (!Number.isSafeInteger(v)) return value;
  return `{${value.join(',')}}`;
}

function preparePoolClients(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool);
  const patched = new WeakSet<object>();
  (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    if (!patched.has(client)) {
      patched.add(client);
      // a backend that dies while its client is checked out (pg_terminate_backend, a restart, a cut
      // network) emits 'error' on the client, which pg-pool only listens to while it is idle: unheard,
      // it would crash the process. The query in flight fails on its own (a 503), and pg-pool drops
      // the broken client when it is released.
      client.on('error', () => undefined);
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection
        .stream;
      // a transaction's BEGIN, queued but not yet written (below)
      let began: Promise<unknown> | null = null;
      // a transaction is open (Kysely's BEGIN sent, its COMMIT or ROLLBACK not yet)
      let inTransaction = false;
      // the COMMIT already sent behind a statement ending in COMMIT_FOLLOWS
      let committed: Promise<unknown> | null = null;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown) => {
        if (text === 'commit' || text === 'rollback') {
          inTransaction = false;
          if (committed) {
            // the transaction ended with that COMMIT: committed, or rolled back if a statement failed
            const done = committed;
            committed = null;
            return done;
          }
        }
        if (text === 'begin') inTransaction = true;
        if (text === 'begin' && began === null) {
          // issue 15: a write's BEGIN is written to the socket together with its first statement,
          // one write and one round trip instead of two (pipeline mode sends it without waiting
          // for its answer; the cork holds it until that statement joins it). Kysely always sends
          // a statement after BEGIN (at least its COMMIT or ROLLBACK). The statement's answer
          // waits for BEGIN's, so a failed BEGIN (a broken connection) fails it too.
          stream.cork();
          began = query(text, values);
          began.catch(() => undefined);
          return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [], fields: [] });
        }
        let run: Promise<unknown>;
        if (Array.isArray(values) && typeof text === 'string') {
          // a statement of Kysely's (it always passes its parameters): rows come as arrays and
          // become objects by a builder compiled for their columns (row-builders.ts)
          if (values.some(Array.isArray)) values = values.map(idArrayLiteral);
          const name = nameFor(text);
          const config = name ? { name, text, values, rowMode: 'array' } : { text, values, rowMode: 'array' };
          run = (query(config) as Promise<pg.QueryResult>).then(rowsAsObjects);
        } else {
          run = query(text, values);
        }
        if (inTransaction && committed === null && typeof text === 'string' && text.endsWith(COMMIT_FOLLOWS)) {
          committed = query('commit');
          committed.catch(() => undefined);
        }
        if (began === null) return run;
        const withBegin = Promise.all([began, run]).then(([, result]) => result);
        began = null;
        stream.uncork();
        return withBegin;
      };
    }
    return client;
  };
  return pool;
}

/**
 * Ends a statement's text when its transaction's COMMIT may be written right behind it (nothing
 * else is written in the transaction: core/crud/create-in-one.ts). The COMMIT shares the
 * statement's write and round trip; the transaction's own COMMIT, or a ROLLBACK after a failure,
 * is then answered by that one. PGlite runs the text as it is (a comment) and commits as usual.
 */
export const COMMIT_FOLLOWS = '/* commit follows */';

/** a pool that cannot hand out a connection in this time answers 503 rather than keep the request waiting */
const CONNECT_TIMEOUT_MS = 10_000;

async function openPostgres(url: string, max: number, statementTimeoutSec: number): Promise<Database> {
  installQueryConfigCopy();
  installDescribedOnce();
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // a client writes a statement without waiting for the answer to the one before, so a
    // transaction's BEGIN can share its first statement's write (preparePoolClients); pg 8.23's
    // option, not yet in its type definitions
    ...({ pipeline: true } as pg.PoolConfig),
    options: '-c TimeZone=UTC',
    // one pathological statement cannot hold a connection forever (errors.ts: statementTimeout)
    ...(statementTimeoutSec > 0 ? { statement_timeout: Math.max(1, Math.round(statementTimeoutSec * 1000)) } : {}),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // a server that vanished without closing the socket is found out by the kernel
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // an idle connection the server drops (restart, failover, terminated backend) emits 'error' on
  // the pool; without a listener Node would crash. The pool replaces it on the next checkout.
  pool.on('error', () => undefined);
  let opened = 0;
  pool.on('connect', () => void opened++);
  const stats = { queries: 0 };
  const changes = postgresChangeWatch(url);
  const listeners = new Set<StatementListener>();
  const kysely: Kdb = new Kysely({
    dialect: new PostgresDialect({ pool: preparePoolClients(pool) }),
    log: observer(stats, changes, listeners),
  });
  await sql`select 1`.execute(kysely);
  await whenReliable(changes);
  return {
    kysely,
    stats,
    changes,
    engine: 'postgres',
    concurrent: true,
    observeStatements: addTo(listeners),
    pool: () => ({ max, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, opened }),
    dataVersion: sharedAsk(
      async () => (await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(kysely)).rows[0]!.v,
    ),
    // scripts are migrations: no statement timeout (an index on a large table may take minutes)
    exec: async (script) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('set statement_timeout = 0');
        await client.query(script);
      } finally {
        // a failed script can leave the session inside an aborted transaction: that connection is dropped
        await client.query('reset statement_timeout').catch((e: Error) => (broken = e));
        client.release(broken);
        changes.observeScript(script);
      }
    },
    close: async () => {
      await changes.close();
      await kysely.destroy();
    },
  };
}
