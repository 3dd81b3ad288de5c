/**
 * Autovacuum for the embedded engine. PGlite runs PostgreSQL in single-user mode, where no
 * autovacuum worker exists: without this, tables written through the API would never have planner
 * statistics (a site list over 10,000 sites planned without them ran at two thirds of the speed,
 * bench/) and the dead rows left by updates and deletes would never be reclaimed.
 *
 * Every MAINTENANCE_MS, if anything was written since the last round (and once after start), the tables past
 * PostgreSQL's default autovacuum thresholds (`autovacuum_vacuum_threshold` 50 +
 * `autovacuum_vacuum_scale_factor` 0.2 of the rows; analyze: 50 + 0.1) are vacuumed or analyzed,
 * one at a time between requests (each takes the single connection like any statement).
 */
import { sql } from 'kysely';
import type { Database } from './client.js';

const MAINTENANCE_MS = 60_000;

interface Due {
  name: string;
  vacuum: boolean;
}

/** One round: what it vacuumed and analyzed (tests, diagnostics). */
export async function maintainOnce(
  db: Pick<Database, 'kysely' | 'exec'>,
): Promise<{ vacuumed: string[]; analyzed: string[] }> {
  // counters are flushed to the shared statistics at most once a second; ask for them now
  await sql`select pg_stat_force_next_flush()`.execute(db.kysely);
  // The counters do not survive a restart of PGlite, so a table that grew by a fifth since its
  // last statistics (pages in pg_class against its size now) is due as well.
  const due =
    await sql<Due>`select s.relname as name, s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or g.grown as vacuum
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid,
      lateral (select pg_relation_size(s.relid) / current_setting('block_size')::int > 1.2 * c.relpages + 8 as grown) g
    where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) or g.grown
    order by s.relname`.execute(db.kysely);
  const out = { vacuumed: [] as string[], analyzed: [] as string[] };
  for (const t of due.rows) {
    // names come from the catalog; quoted all the same
    const name = `"${t.name.replace(/"/g, '""')}"`;
    await db.exec(t.vacuum ? `vacuum (analyze) ${name}` : `analyze ${name}`);
    if (t.vacuum) out.vacuumed.push(t.name);
    out.analyzed.push(t.name);
  }
  return out;
}

/** Runs maintainOnce every MAINTENANCE_MS while data changes; returns the stop function. */
export function startMaintenance(
  db: Pick<Database, 'kysely' | 'exec' | 'changes'>,
  onError: (e: Error) => void,
): () => void {
  // the first round runs whatever happened: a data directory may come from a version without this
  let seen = -1;
  let running = false;
  const timer = setInterval(() => {
    if (running || db.changes.generation === seen) return;
    running = true;
    seen = db.changes.generation;
    maintainOnce(db)
      .catch(onError)
      .finally(() => (running = false));
  }, MAINTENANCE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
