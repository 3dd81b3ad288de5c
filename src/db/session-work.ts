/**
 * What needs more than one transaction on one server connection: a migration script run with no
 * statement timeout, and an advisory lock held across several transactions (migrate.ts). Directly
 * on PostgreSQL both use a session of a pool connection. Behind PgBouncer in transaction pooling
 * (docs/postgresql.md, "PgBouncer") a session setting or a session lock would stay on a server
 * connection PgBouncer then lends to another client, so:
 *
 * - with DATABASE_DIRECT_URL, both use a connection of their own to the server itself;
 * - without it, a script runs as it is (each migration sets its own `set local statement_timeout`,
 *   migrate.ts), and the lock is `pg_advisory_xact_lock` in a transaction kept open on a connection
 *   of its own through PgBouncer while the work runs on the pool's; PgBouncer keeps that server
 *   connection for this client until the transaction ends, and a process that dies ends it (the
 *   lock goes with it).
 */
import pg from 'pg';

interface ScriptClient {
  query(text: string): Promise<unknown>;
  release(err?: Error | boolean): void;
}

export interface SessionWork {
  /** runs a multi-statement script (a migration) with no statement timeout */
  exec(script: string): Promise<void>;
  /** runs `work` holding advisory lock `key` against every other process of the database */
  holdingLock<T>(key: number, work: () => Promise<T>): Promise<T>;
}

export interface SessionPlaces {
  pool: { connect(): Promise<ScriptClient> };
  /** the URL the pool connects to (PgBouncer) */
  url: () => string;
  pgbouncer: boolean;
  /** PgBouncer mode: the server itself, or null */
  directUrl: string | null;
}

/** a connection of its own to the server itself, with no statement timeout (an index on a large table may take minutes) */
async function directSession<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'inventory-migrate' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('set statement_timeout = 0');
    return await work(client);
  } finally {
    // the session's end releases its advisory locks and its aborted transaction, if any
    await client.end().catch(() => undefined);
  }
}

const LOCK_RETRY_MS = 250;

/**
 * Tried, not waited for: a process waiting inside a transaction would hold one of PgBouncer's
 * server connections all the while, and with as many waiters as the bouncer's pool the holder's own
 * work could get none. Between tries the waiter holds nothing. The wait is no slow statement.
 */
async function takeXactLock(client: pg.Client, key: number): Promise<void> {
  for (;;) {
    await client.query('begin');
    await client.query('set local statement_timeout = 0');
    const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1) as ok', [key]);
    if (rows[0]?.ok) return;
    await client.query('rollback');
    await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
  }
}

export function sessionWork({ pool, url, pgbouncer, directUrl }: SessionPlaces): SessionWork {
  if (pgbouncer && directUrl) {
    return {
      exec: (script) => directSession(directUrl, async (c) => void (await c.query(script))),
      holdingLock: (key, work) =>
        directSession(directUrl, async (c) => {
          await c.query('select pg_advisory_lock($1)', [key]);
          return work();
        }),
    };
  }
  if (pgbouncer) {
    return {
      exec: async (script) => {
        const client = await pool.connect();
        let failed: Error | undefined;
        try {
          await client.query(script);
        } catch (e) {
          // an aborted transaction must not go back to the pool
          failed = e as Error;
          throw e;
        } finally {
          client.release(failed);
        }
      },
      // a client of its own, not the pool's: the work needs the pool, which may have one connection
      holdingLock: async (key, work) => {
        const client = new pg.Client({ connectionString: url(), application_name: 'inventory-migrate' });
        client.on('error', () => undefined);
        await client.connect();
        try {
          await takeXactLock(client, key);
          const result = await work();
          await client.query('commit');
          return result;
        } finally {
          // the session's end rolls back what did not commit and releases the lock
          await client.end().catch(() => undefined);
        }
      },
    };
  }
  return {
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
      }
    },
    holdingLock: async (key, work) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // waiting for another process's migrations is not a slow statement (STATEMENT_TIMEOUT)
        await client.query('set statement_timeout = 0');
        await client.query(`select pg_advisory_lock(${Number(key)})`);
        try {
          return await work();
        } finally {
          await client.query(`select pg_advisory_unlock(${Number(key)})`).catch((e: Error) => (broken = e));
        }
      } finally {
        await client.query('reset statement_timeout').catch((e: Error) => (broken = e));
        client.release(broken);
      }
    },
  };
}
