/**
 * The total of a list with no condition, from the row counts the largest tables keep (migration
 * 0147: statement triggers add and take off what each statement inserted or deleted, in 64 slots
 * per table) instead of count(*) over every row. issue 15: list totals never count a million rows.
 * The tables counted are the ones with the trigger, read once per process from the catalog.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { catalogOnce } from './catalog-once.js';

const countedTables = catalogOnce(async (rc) => {
  const res = await sql<{ t: string }>`select distinct c.relname as t from pg_trigger g join pg_class c on c.oid = g.tgrelid
    where g.tgname = 'inv_count_inserted' and c.relnamespace = current_schema()::regnamespace`.execute(rc.q);
  return new Set(res.rows.map((r) => r.t));
});

/** The statement giving a table's total under `where`: the kept row count when nothing narrows it. */
export async function totalSql(rc: RequestContext, table: string, where: RawBuilder<unknown>, narrowed: boolean): Promise<RawBuilder<{ n: number }>> {
  if (!narrowed && (await countedTables(rc)).has(table)) {
    return sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from inv_row_count where tbl = ${sql.lit(table)}`;
  }
  return sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} as t ${where}`;
}
