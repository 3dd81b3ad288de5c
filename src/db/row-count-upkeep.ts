/**
 * Upkeep of the kept row counts (migration 0147) and per-owner counts (0148): every connection adds into a slot of its own
 * (its backend's pid), so a table has one row per connection that ever wrote it. At each start,
 * the slots of connections no longer alive are folded into slot 0, which keeps the rows few
 * while the sums stay the same. A pid reused meanwhile is alive, so its slot is left as it is.
 */
import { sql } from 'kysely';
import type { Kdb } from './client.js';

export async function foldGoneRowCounts(q: Kdb): Promise<void> {
  await sql`with gone as (
      delete from inv_row_count where slot <> 0 and slot not in (select pid from pg_stat_activity where pid is not null)
      returning tbl, n)
    insert into inv_row_count as c (tbl, slot, n) select tbl, 0, sum(n) from gone group by tbl
    on conflict (tbl, slot) do update set n = c.n + excluded.n`.execute(q);
}

/** The same for the per-owner counts of migration 0148; owners whose count came to 0 are dropped from slot 0. */
export async function foldGoneKeptCounts(q: Kdb): Promise<void> {
  await sql`with gone as (
      delete from inv_kept_count where slot <> 0 and slot not in (select pid from pg_stat_activity where pid is not null)
      returning tbl, col, owner, n)
    insert into inv_kept_count as c (tbl, col, owner, slot, n) select tbl, col, owner, 0, sum(n) from gone group by tbl, col, owner
    on conflict (tbl, col, owner, slot) do update set n = c.n + excluded.n`.execute(q);
  await sql`delete from inv_kept_count where slot = 0 and n = 0`.execute(q);
}
