/**
 * The change log's monthly partitions (migration 0215): made ahead of time, and dropped whole once
 * older than CHANGELOG_RETENTION days.
 *
 * - Ahead: this month and the next two, each a partition of its own before the first row of its
 *   month comes. A row no monthly partition covers (the service was down across a month boundary,
 *   a restored or imported change of long ago) lands in the default partition, so an insert never
 *   fails; a month made later takes its rows out of the default partition first, since PostgreSQL
 *   refuses to attach a partition whose rows the default partition still holds (docs: ALTER TABLE,
 *   ATTACH PARTITION).
 * - Retention: a month that ended before the cut is detached and dropped, which costs the same
 *   however many rows it held; the rows older than the cut in the month that straddles it (and in
 *   the default partition) are deleted. The kept row count (0147_row_counts.sql) learns of the
 *   dropped rows here, as no delete trigger sees them.
 *
 * Each step runs under the advisory lock of partitions.ts, so one process of several does it.
 */
import { sql } from 'kysely';
import type { Kdb } from './client.js';
import {
  attachRangePartition,
  dropPartition,
  listRangePartitions,
  rangeSuffix,
  type RangePartition,
  startRounds,
  tableExists,
  underLock,
} from './partitions.js';

const TABLE = 'extras_objectchange';
/** months made ahead of the current one */
const MONTHS_AHEAD = 2;
/** pg_try_advisory_xact_lock key of a step: "invp" */
const LOCK_KEY = 0x696e7670;
/** the first round after start, and then one a day */
const FIRST_ROUND_MS = 60_000;
const ROUND_MS = 24 * 3600_000;

/** The first instant of a month, UTC. */
function monthStart(year: number, month: number): Date {
  return new Date(Date.UTC(year, month, 1));
}

/** The monthly partitions there are, by name (`extras_objectchange_pYYYYMM`), with their month's start. */
export async function listMonthPartitions(q: Kdb): Promise<RangePartition[]> {
  return listRangePartitions(q, TABLE);
}

/**
 * Makes the partitions of this month and the next MONTHS_AHEAD months that are missing, each with
 * the rows of its month the default partition held. Returns the partitions made.
 */
export async function ensureMonthPartitions(q: Kdb, now = new Date()): Promise<string[]> {
  const have = new Set((await listMonthPartitions(q)).map((p) => p.name));
  const made: string[] = [];
  for (let i = 0; i <= MONTHS_AHEAD; i++) {
    const start = monthStart(now.getUTCFullYear(), now.getUTCMonth() + i);
    const name = `${TABLE}_p${rangeSuffix(start, 'month')}`;
    if (have.has(name)) continue;
    const end = monthStart(start.getUTCFullYear(), start.getUTCMonth() + 1);
    const done = await underLock(q, LOCK_KEY, async (trx) => {
      // another process may have made it since the list above
      if (await tableExists(trx, name)) return;
      await attachRangePartition(trx, { table: TABLE, name, column: 'time', start, end });
      made.push(name);
    });
    if (!done) break;
  }
  return made;
}

/**
 * CHANGELOG_RETENTION: drops the months that ended before `now - days` and deletes the older rows
 * of the month that straddles the cut and of the default partition. `days` 0 keeps everything.
 */
export async function applyChangelogRetention(
  q: Kdb,
  days: number,
  now = new Date(),
): Promise<{ dropped: string[]; deleted: number }> {
  const out = { dropped: [] as string[], deleted: 0 };
  if (days <= 0) return out;
  const cut = new Date(now.getTime() - days * 86_400_000);
  for (const p of await listMonthPartitions(q)) {
    const end = monthStart(p.start.getUTCFullYear(), p.start.getUTCMonth() + 1);
    if (end > cut) continue;
    const done = await underLock(q, LOCK_KEY, async (trx) => {
      if (!(await tableExists(trx, p.name))) return;
      // no insert reaches the month between its count and its drop
      await sql`lock table ${sql.id(p.name)} in share mode`.execute(trx);
      const counted = await sql<{ n: string }>`select count(*) as n from ${sql.id(p.name)}`.execute(trx);
      await dropPartition(trx, TABLE, p.name);
      // what the delete trigger of 0147_row_counts.sql would have taken off
      await sql`insert into inv_row_count as c (tbl, slot, n) values (${TABLE}, pg_backend_pid(), ${-Number(counted.rows[0]!.n)})
        on conflict (tbl, slot) do update set n = c.n + excluded.n`.execute(trx);
      out.dropped.push(p.name);
    });
    if (!done) return out;
  }
  // through the parent, so the row-count trigger sees it; pruning keeps it to the partitions before the cut
  await underLock(q, LOCK_KEY, async (trx) => {
    const res = await sql<{
      n: string;
    }>`with gone as (delete from ${sql.id(TABLE)} where time < ${cut.toISOString()}::timestamptz returning 1)
      select count(*) as n from gone`.execute(trx);
    out.deleted = Number(res.rows[0]!.n);
  });
  return out;
}

/**
 * One round of upkeep: the months ahead, then the retention. Called at each start (bootstrap.ts,
 * months only) and by startChangelogUpkeep.
 */
export async function upkeepChangelog(
  q: Kdb,
  retentionDays: number,
  now = new Date(),
): Promise<{ created: string[]; dropped: string[]; deleted: number }> {
  const created = await ensureMonthPartitions(q, now);
  return { created, ...(await applyChangelogRetention(q, retentionDays, now)) };
}

/** Runs upkeepChangelog a minute after start and then daily; returns the stop function. */
export function startChangelogUpkeep(q: Kdb, retentionDays: number, onError: (e: Error) => void): () => void {
  return startRounds(() => upkeepChangelog(q, retentionDays), FIRST_ROUND_MS, ROUND_MS, onError);
}
