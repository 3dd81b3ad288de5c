/**
 * The page statement of a list (crud/read.ts listObjects): its conditions, narrowed first when an
 * OR reads each of its alternatives through its own index, its order and its limit, and the total
 * as a sub-select when the read's plan has the page carry it (read-plan.ts).
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { alternatives } from '../query/alternatives.js';
import type { Cond } from '../query/lookups.js';
import type { Page } from '../query/pagination.js';

/**
 * The page query of a read, given its select list (`t.*`, or the columns the form reads) and
 * whether it also selects the list's total as `__total` (a list page whose total is not cached; a
 * cursor page has none).
 */
export type PageQuery = (columns: RawBuilder<unknown>, withTotal: boolean) => RawBuilder<unknown>;

/** `where` and the conditions joined by `and`, or nothing */
export function whereSql(conds: Cond[]) {
  return conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
}

/** offset + limit past which a page does not read alternatives apart: each would read that many ids */
const ALTERNATIVES_MAX_ROWS = 10_000;

/**
 * A page of a list filtered by an OR of alternatives (query/alternatives.ts): the page's rows are
 * among the first `offset + limit` rows of each alternative in the page order, so those ids, read
 * each through its own index, narrow the page. The alternatives match what the OR matches, so the
 * page reads the ids in place of the OR: with the OR beside them, PostgreSQL could read the OR's
 * own index range instead and test each row against the ids (`parent=10.1.0.0/16`: 2,500 rows for
 * a page of 50, as the network's lower bound is a sub-query's answer it cannot estimate).
 * Null when no condition has alternatives, or the page has no limit or lies too deep.
 */
export function narrowToAlternatives(conds: Cond[], table: Cond, order: Cond, page: Page): Cond[] | null {
  if (page.limit === null || page.offset + page.limit > ALTERNATIVES_MAX_ROWS) return null;
  const i = conds.findIndex((c) => alternatives(c));
  if (i === -1) return null;
  const others = conds.filter((_, j) => j !== i);
  const firsts = alternatives(conds[i]!)!.map(
    (a) =>
      sql`(select t.id from ${table} as t ${whereSql([...others, a])} order by ${order} limit ${page.offset + page.limit!})`,
  );
  return [...others, sql`t.id = any(array(${sql.join(firsts, sql` union `)}))`];
}

/** an offset from which a page reads its ids first (below) */
const DEEP_OFFSET = 1_000;

/**
 * A list's page statement. The usual page sizes are written into it and a zero offset is left
 * out, so the prepared statement gets a good generic plan and is planned once (PostgreSQL's generic
 * plan for `limit $1` assumes a huge page; a custom plan costs ~1 ms of planning per request).
 * Other sizes and offsets stay parameters, so clients cannot mint a statement per page. The total
 * comes last: removing the last property of a row is cheap, while removing the first turned every
 * row of the page into a slow dictionary object (V8).
 */
export function listPageQuery(
  rc: RequestContext,
  table: Cond,
  where: RawBuilder<unknown>,
  order: Cond,
  page: Page,
  countSql: RawBuilder<{ n: number }> | null,
): PageQuery {
  const { paginateCount, maxPageSize } = rc.app.config;
  const usualSize = page.limit === paginateCount || page.limit === maxPageSize;
  const limit = sql`${page.limit === null ? sql`` : sql`limit ${usualSize ? sql.lit(page.limit) : page.limit}`} ${page.offset ? sql`offset ${page.offset}` : sql``}`;
  const total = (withTotal: boolean) => (withTotal && countSql ? sql`, (${countSql}) as __total` : sql``);
  // A deep page reads its ids first, then only its rows: a row an offset skips is otherwise read
  // whole from the heap (an index scan fetches each row before the limit drops it), where the ids
  // can come from an index alone (the order's index with id in it, as 0155 and 0217 make them)
  if (page.offset >= DEEP_OFFSET)
    return (columns, withTotal) =>
      sql`select ${columns}${total(withTotal)} from ${table} as t
        where t.id = any(array(select t.id from ${table} as t ${where} order by ${order} ${limit})) order by ${order}`;
  return (columns, withTotal) =>
    sql`select ${columns}${total(withTotal)} from ${table} as t ${where} order by ${order} ${limit}`;
}
