/**
 * Planner statistics soon after a load, on PostgreSQL. Autovacuum analyzes a table once a tenth of
 * its rows changed (`autovacuum_analyze_scale_factor` 0.1 + threshold 50), but its launcher wakes
 * only every `autovacuum_naptime` (60 s by default): a team that loads its inventory through the API
 * and reads at once meets plans made without statistics. Measured on the standard data set loaded
 * through the API: one device's interface page planned 115 ms and ran 30 ms (its address count read
 * every address), against 10 ms and 6.4 ms once analyzed (EXPLAIN ANALYZE).
 *
 * So every CHECK_MS, if this process saw data change since the last round, it asks the server for
 * the tables past autovacuum's analyze threshold and analyzes them: on a connection of its own
 * (never the pool's, so requests never wait behind it and statement counts stay the requests'), and
 * under a transaction-level advisory lock, so of several service processes one does the round. Vacuuming stays
 * autovacuum's. PGlite has no autovacuum at all and does both itself (pglite-maintenance.ts).
 */
import pg from 'pg';
import type { ChangeWatch } from './change-watch.js';

export const CHECK_MS = 3_000;
/** pg_try_advisory_xact_lock key of the round: "inv-analyze" */
const LOCK_KEY = 0x696e7661;

/** the tables past autovacuum's analyze threshold; their names come from the catalog */
const DUE = `select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
  order by s.n_mod_since_analyze desc`;

/** One round on its own connection: the tables it analyzed, or null when another process holds the round. */
export async function analyzeDueTables(connectionString: string): Promise<string[] | null> {
  const client = new pg.Client({ connectionString, application_name: 'netinventory analyze' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // one transaction holding a transaction-level lock: it works behind a transaction-pooling
    // PgBouncer too, where a session lock would stay on a server connection lent to others
    // (docs/postgresql.md, "PgBouncer"); ANALYZE may run inside a transaction block
    await client.query('begin');
    // a large table's analysis is no runaway statement (the server's default may bound it behind PgBouncer)
    await client.query('set local statement_timeout = 0');
    const lock = await client.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1) as ok', [LOCK_KEY]);
    if (!lock.rows[0]?.ok) return null;
    const due = await client.query<{ name: string }>(DUE);
    for (const t of due.rows) await client.query(`analyze ${t.name}`);
    await client.query('commit');
    return due.rows.map((t) => t.name);
  } finally {
    // the session's end rolls back what did not commit and releases the lock
    await client.end().catch(() => undefined);
  }
}

/** Runs analyzeDueTables while data changes; returns the stop function. */
export function startAnalyzeAfterLoad(
  /** the server, asked each round: after a failover, the new primary */
  server: () => string,
  changes: Pick<ChangeWatch, 'generation'>,
  onError: (e: Error) => void,
): () => void {
  let seen = changes.generation;
  let running = false;
  const timer = setInterval(() => {
    if (running || changes.generation === seen) return;
    running = true;
    seen = changes.generation;
    analyzeDueTables(server())
      .catch(onError)
      .finally(() => (running = false));
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
