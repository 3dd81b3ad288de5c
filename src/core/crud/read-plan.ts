/**
 * How a read takes its rows and its total, decided in one place: `planRead`, once per request,
 * from facts about the request. The decision table (inputs -> choice -> why) is in this folder's
 * README; read.ts carries the plan out, case by case.
 *
 * A fact that costs something is a function, asked only when the choices before it leave the
 * matter open: the column types of a large page's table (a statement, once per table), the
 * compiled page statement (text work on every request).
 */
import type { CompiledQuery } from 'kysely';

/**
 * How the page's rows, and what their representation shows beyond their own columns, are read:
 * - `prefetched`: one statement, the page wrapped with its related data (represent/prefetch.ts withPrefetch)
 * - `columnar`: the page read as one row of arrays (db/columnar.ts), then its related data by its ids
 * - `alternatives`: a page narrowed to the ids of an OR's alternatives (list-page.ts narrowToAlternatives),
 *   read alone, then its related data by its ids (prefetchFor)
 * - `per-value`: a page PostgreSQL plans per value, read alone, then its related data by its ids
 */
type RowsWay = 'prefetched' | 'columnar' | 'alternatives' | 'per-value';

/**
 * How a list's total is had:
 * - `cached`: from the count cache (core/cache/count-cache.ts), no statement
 * - `shared`: from another request counting the same rows at the same version now (list-total.ts);
 *   counted alone should that request fail
 * - `with-page`: as a sub-select of the page's statement (`__total` on its first row); an empty page
 *   has no row to carry it (`emptyPage`)
 * - `none`: the read is not a list page (a detail, an export's chunk)
 */
type TotalWay = 'cached' | 'shared' | 'with-page' | 'none';

export interface ReadPlan {
  rows: RowsWay;
  total: TotalWay;
  /** `with-page` only: an empty page's total, 0 on the first page, else counted by a statement of its own */
  emptyPage?: 'zero' | 'count-alone';
  /** why each way was chosen, in the words of this folder's README (a trace, a test) */
  why: { rows: string; total: string };
}

export interface ReadFacts {
  /** a list page: rows asked for (null: every row) and the offset; absent when the read is not a list page */
  page?: { limit: number | null; offset: number };
  /** the list's total: in the count cache, being counted by another request, or neither (list-total.ts) */
  total?: 'cached' | 'shared' | 'uncounted';
  /** the page's filters hold an OR whose alternatives narrow the page (list-page.ts narrowToAlternatives) */
  alternatives: boolean;
  /** whether every column the form reads has a text form a columnar read parses (db/columnar.ts) */
  readableAsColumns(): Promise<boolean>;
  /** whether PostgreSQL plans the page statement per value (plannedPerValue), with or without the total's sub-select */
  plannedPerValue(withTotal: boolean): boolean;
}

/**
 * pages of this many rows or more are read as columns (db/columnar.ts); below it the prefetch's
 * second statement costs more than the rows' parsing saves (pages of 50 addresses or sites read
 * as columns took 10-20 % more CPU)
 */
export const COLUMNAR_MIN_ROWS = 200;

/** The plan of a read: its total first (the page statement carries it or not), then its rows. */
export async function planRead(facts: ReadFacts): Promise<ReadPlan> {
  const total = planTotal(facts);
  const rows = await planRows(facts, total.total === 'with-page');
  return { rows: rows.rows, ...total, why: { rows: rows.why, total: total.why } };
}

function planTotal(facts: ReadFacts): { total: TotalWay; emptyPage?: 'zero' | 'count-alone'; why: string } {
  if (!facts.page || !facts.total) return { total: 'none', why: 'not a list page: no total' };
  if (facts.total === 'cached') return { total: 'cached', why: 'the count cache holds it at this version' };
  if (facts.total === 'shared') {
    return { total: 'shared', why: 'another request is counting the same rows at this version: no second scan' };
  }
  return {
    total: 'with-page',
    emptyPage: facts.page.offset === 0 ? 'zero' : 'count-alone',
    why: 'not cached: a sub-select of the page statement, evaluated once, no round trip of its own',
  };
}

async function planRows(facts: ReadFacts, withTotal: boolean): Promise<{ rows: RowsWay; why: string }> {
  const limit = facts.page?.limit;
  if (limit !== undefined && (limit === null || limit >= COLUMNAR_MIN_ROWS) && (await facts.readableAsColumns())) {
    return { rows: 'columnar', why: `a page of ${COLUMNAR_MIN_ROWS} rows or more: its rows parsed as arrays` };
  }
  if (facts.alternatives) {
    return { rows: 'alternatives', why: 'an OR read through each alternative: planned per value, prefetch apart' };
  }
  if (facts.plannedPerValue(withTotal)) {
    return { rows: 'per-value', why: 'planned per value: the prefetch apart keeps one plan' };
  }
  return { rows: 'prefetched', why: 'one statement: the page and what it shows' };
}

/**
 * Whether PostgreSQL plans a statement afresh for each request: a pattern (`like`, a regular
 * expression) or a network containment (`<<=`, `>>=`) against a parameter is estimated from the
 * value, so its generic plan looks worse than a custom one and the plan cache keeps planning it per
 * execution. Such a page then runs alone and its prefetch apart (represent/prefetch.ts,
 * prefetchFor), by ids, where one plan serves every page: planning the prefetch with each page cost
 * ~1 ms of PostgreSQL per request (`ip-addresses/?q=10.1.`, bind 1.06 ms; `?parent=10.1.0.0/16`,
 * 1.49 ms; the page statement alone is planned in 0.1-0.35 ms). Equality against parameters keeps
 * the generic plan, and a second statement would only add a round trip, so those stay one statement.
 */
export function plannedPerValue(page: CompiledQuery): boolean {
  return page.parameters.length > 0 && VALUE_ESTIMATED.test(page.sql);
}

const VALUE_ESTIMATED = /\s(?:i?like|similar\s+to|!?~\*?|<<=?|>>=?|&&|@>|<@)\s/i;
