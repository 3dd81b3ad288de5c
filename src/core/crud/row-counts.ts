/**
 * The total of a list with no condition, from the row counts the largest tables keep (migration
 * 0147: statement triggers add and take off what each statement inserted or deleted, in 64 slots
 * per table) instead of count(*) over every row, so a list total never counts a million rows.
 * The tables counted are the ones with the trigger, read once per process from the catalog.
 *
 * Likewise a list narrowed by nothing but one owner's id (`ip-addresses/?vrf_id=1`,
 * `devices/?site_id=3`), where that owner's rows are counted per owner (migrations 0148, 0149):
 * its total is the owner's kept count, not count(*) over the owner's rows.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import { type Params, RESERVED_PARAMS, resolveFilter } from '../query/filters.js';
import { keptColumns } from '../represent/load-related.js';
import { catalogOnce } from './catalog-once.js';

const countedTables = catalogOnce(async (rc) => {
  const res = await sql<{
    t: string;
  }>`select distinct c.relname as t from pg_trigger g join pg_class c on c.oid = g.tgrelid
    where g.tgname = 'inv_count_inserted' and c.relnamespace = current_schema()::regnamespace`.execute(rc.q);
  return new Set(res.rows.map((r) => r.t));
});

/** The statement giving a table's total under `where`: the kept row count when nothing narrows it. */
export async function totalSql(
  rc: RequestContext,
  table: string,
  where: RawBuilder<unknown>,
  narrowed: boolean,
): Promise<RawBuilder<{ n: number }>> {
  if (!narrowed && (await countedTables(rc)).has(table)) {
    return sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from inv_row_count where tbl = ${sql.lit(table)}`;
  }
  return sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} as t ${where}`;
}

/**
 * The kept total of a list whose only filter is the model's own `<fk>_id` with one id (not a
 * filter the model declares itself, such as an interface's device_id, which takes in a virtual
 * chassis), on a column kept per owner; otherwise null. `filters` are the list's parameters with
 * any saved filter applied; `narrowedOtherwise`: a permission's constraints also apply.
 */
export function keptOwnerTotalSql(
  rc: RequestContext,
  model: ModelDef,
  filters: Params,
  narrowedOtherwise: boolean,
): RawBuilder<{ n: number }> | null {
  if (narrowedOtherwise) return null;
  let only: { column: string | undefined; values: string[] } | null = null;
  for (const [name, values] of filters) {
    if (RESERVED_PARAMS.has(name) || values.length === 0) continue;
    const resolved = resolveFilter(model, name);
    // parameters that filter nothing (an unknown name such as a cache-buster `_`); custom fields
    // are resolved per request, and filter
    if (!resolved && !name.startsWith('cf_')) continue;
    if (only) return null;
    only = { column: resolved?.ownerColumn, values };
  }
  if (!only?.column || only.values.length !== 1 || !/^[1-9][0-9]{0,15}$/.test(only.values[0]!)) return null;
  if (!keptColumns(rc.app.registry).has(`${model.table}.${only.column}`)) return null;
  return sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from inv_kept_count
    where tbl = ${sql.lit(model.table)} and col = ${sql.lit(only.column)} and owner = ${Number(only.values[0])}::bigint`;
}
