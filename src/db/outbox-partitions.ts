/**
 * The webhook outbox's daily partitions (migration 0219): core_event and core_delivery both
 * partitioned by the event's day, made ahead of time and dropped together once every delivery of
 * the day finished more than WEBHOOK_RETENTION_DAYS ago.
 *
 * - Ahead: today and the next two days, in both tables at once. An event no day covers (no process
 *   ran a worker across two days) lands with its deliveries in the default partitions, so an
 *   enqueue never fails; the day made later takes them out of there.
 * - Retention keeps a delivery WEBHOOK_RETENTION_DAYS after it finishes (succeeded, failed,
 *   skipped), as the row-by-row delete did before. A day that ended before the cut is dropped in
 *   both tables when none of its deliveries is unfinished or finished after the cut; so a delivery
 *   is removed between that many days and a day more after it finished. A day still holding a
 *   queued or running delivery (a retry waiting: WEBHOOK_RETRY_MAX bounds them) is kept until
 *   that finishes too; meanwhile its finished deliveries past the cut are deleted row by row, as
 *   are those of the default partitions, and then the events left with no delivery: nothing is
 *   kept forever.
 *
 * Each step runs under the advisory lock of partitions.ts, so one process of several does it; a
 * round that finds nothing to do sends no write (core/events/README.md, "Quiet when idle").
 */
import { sql } from 'kysely';
import type { Kdb } from './client.js';
import {
  attachRangePartition,
  dropPartition,
  listRangePartitions,
  rangeSuffix,
  startRounds,
  tableExists,
  underLock,
} from './partitions.js';

const EVENTS = 'core_event';
const DELIVERIES = 'core_delivery';
const DAY_MS = 86_400_000;
/** days made ahead of today */
const DAYS_AHEAD = 2;
/** pg_try_advisory_xact_lock key of a step: "invo" (the change log's is "invp": each runs apart) */
const LOCK_KEY = 0x696e766f;
/** the first round after start, and then one an hour: a day past the cut is dropped within the hour */
const FIRST_ROUND_MS = 60_000;
const ROUND_MS = 3600_000;
const FINISHED = sql`status in ('succeeded', 'failed', 'skipped')`;

function dayStart(t: Date): Date {
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
}

/** The days there are, by the event table's partitions (`core_event_pYYYYMMDD`); the deliveries' have the same names. */
export async function listOutboxDays(q: Kdb): Promise<Array<{ day: string; start: Date }>> {
  return (await listRangePartitions(q, EVENTS)).map((p) => ({ day: p.name.slice(EVENTS.length + 2), start: p.start }));
}

/**
 * Makes the partitions of today and the next DAYS_AHEAD days that are missing, in both tables, each
 * with the rows of its day the default partitions held. Returns the days made (`YYYYMMDD`).
 */
export async function ensureOutboxDays(q: Kdb, now = new Date()): Promise<string[]> {
  const have = new Set((await listOutboxDays(q)).map((p) => p.day));
  const made: string[] = [];
  for (let i = 0; i <= DAYS_AHEAD; i++) {
    const start = new Date(dayStart(now).getTime() + i * DAY_MS);
    const day = rangeSuffix(start, 'day');
    if (have.has(day)) continue;
    const end = new Date(start.getTime() + DAY_MS);
    const done = await underLock(q, LOCK_KEY, async (trx) => {
      // another process may have made it since the list above
      if (await tableExists(trx, `${EVENTS}_p${day}`)) return;
      for (const table of [EVENTS, DELIVERIES])
        await attachRangePartition(trx, { table, name: `${table}_p${day}`, column: 'occurred', start, end });
      made.push(day);
    });
    if (!done) break;
  }
  return made;
}

interface OutboxRetention {
  /** days whose partitions were dropped */
  dropped: string[];
  /** days past the cut kept for a delivery not finished, or finished after the cut */
  held: string[];
  /** rows deleted one by one, from held days and the default partitions */
  deleted: { deliveries: number; events: number };
}

/**
 * WEBHOOK_RETENTION_DAYS: drops the days that ended before `now - days` and whose deliveries all
 * finished before it, and deletes the finished deliveries before the cut (and then the events
 * left without one) of the days it keeps and of the default partitions.
 */
async function applyOutboxRetention(q: Kdb, days: number, now = new Date()): Promise<OutboxRetention> {
  const out: OutboxRetention = { dropped: [], held: [], deleted: { deliveries: 0, events: 0 } };
  const cut = new Date(now.getTime() - days * DAY_MS);
  for (const p of await listOutboxDays(q)) {
    if (p.start.getTime() + DAY_MS > cut.getTime()) continue;
    // reads first, so a day held for long costs each round a read, not a write; another process
    // may have dropped the day since the list above
    if (!(await tableExists(q, `${DELIVERIES}_p${p.day}`))) continue;
    if (await isHeld(q, p.day, cut)) {
      out.held.push(p.day);
      continue;
    }
    const done = await underLock(q, LOCK_KEY, async (trx) => {
      if (!(await tableExists(trx, `${DELIVERIES}_p${p.day}`))) return;
      // the parents first, in the order a write takes them (the event, then its deliveries), so no
      // claim or requeue can change the day between the look below and the drop, nor deadlock
      // with it; the look is two index probes
      await sql`lock table ${sql.id(EVENTS)}, ${sql.id(DELIVERIES)} in access exclusive mode`.execute(trx);
      if (await isHeld(trx, p.day, cut)) {
        out.held.push(p.day);
        return;
      }
      await dropPartition(trx, DELIVERIES, `${DELIVERIES}_p${p.day}`);
      await dropPartition(trx, EVENTS, `${EVENTS}_p${p.day}`);
      out.dropped.push(p.day);
    });
    if (!done) return out;
  }
  out.deleted = await deleteOneByOne(q, cut);
  return out;
}

/** whether a day holds a delivery not finished, or finished after the cut: the partial index of unfinished ones, and (status, ended) */
async function isHeld(q: Kdb, day: string, cut: Date): Promise<boolean> {
  const part = sql.id(`${DELIVERIES}_p${day}`);
  const { rows } = await sql<{ held: boolean }>`select
      exists (select 1 from ${part} where status in ('queued', 'running'))
      or exists (select 1 from ${part} where ${FINISHED} and ended >= ${cut.toISOString()}::timestamptz) as held`.execute(
    q,
  );
  return Boolean(rows[0]?.held);
}

/**
 * The finished deliveries before the cut, and then the events left with none, of the days before
 * the cut's day (kept days and the default partitions: pruning leaves the rest out), after a read
 * that finds there are some.
 */
async function deleteOneByOne(q: Kdb, cut: Date): Promise<OutboxRetention['deleted']> {
  const deleted = { deliveries: 0, events: 0 };
  const before = dayStart(cut).toISOString();
  const cutText = cut.toISOString();
  const deliveries = sql`from ${sql.id(DELIVERIES)} where occurred < ${before}::timestamptz and ${FINISHED}
    and ended < ${cutText}::timestamptz`;
  const events = sql`from ${sql.id(EVENTS)} e where e.occurred < ${before}::timestamptz and not exists
    (select 1 from ${sql.id(DELIVERIES)} d where d.event_id = e.id and d.occurred = e.occurred)`;
  const { rows } = await sql<{ some: boolean }>`select exists (select 1 ${deliveries})
    or exists (select 1 ${events}) as some`.execute(q);
  if (!rows[0]?.some) return deleted;
  await underLock(q, LOCK_KEY, async (trx) => {
    const d = await sql<{ n: number }>`with gone as (delete ${deliveries} returning 1)
      select count(*)::int as n from gone`.execute(trx);
    const e = await sql<{ n: number }>`with gone as (delete ${events} returning 1)
      select count(*)::int as n from gone`.execute(trx);
    deleted.deliveries = Number(d.rows[0]!.n);
    deleted.events = Number(e.rows[0]!.n);
  });
  return deleted;
}

/**
 * One round of upkeep: the days ahead, then the retention. Called at each start (bootstrap.ts, days
 * only) and by startOutboxUpkeep.
 */
export async function upkeepOutbox(
  q: Kdb,
  retentionDays: number,
  now = new Date(),
): Promise<OutboxRetention & { created: string[] }> {
  const created = await ensureOutboxDays(q, now);
  return { created, ...(await applyOutboxRetention(q, retentionDays, now)) };
}

/** Runs upkeepOutbox a minute after start and then hourly; returns the stop function. */
export function startOutboxUpkeep(q: Kdb, retentionDays: number, onError: (e: Error) => void): () => void {
  return startRounds(() => upkeepOutbox(q, retentionDays), FIRST_ROUND_MS, ROUND_MS, onError);
}
