/**
 * Reads: a list page and a detail are one statement each, the related data prefetched with the
 * rows (represent/prefetch.ts), or two when the page's filters are planned per value (a pattern,
 * a network) or the page is large (its rows read as columns, db/columnar.ts). A page filtered by
 * an OR of alternatives reads each apart (query/alternatives.ts). Both are scoped by the user's
 * view constraints.
 */
import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { hasPermission, requirePermission } from '../auth/permissions.js';
import { cacheVersion } from '../cache/cache-version.js';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { buildFilters, type Params } from '../query/filters.js';
import type { Cond } from '../query/lookups.js';
import { buildOrdering } from '../query/ordering.js';
import { type Page, pageLinks, parsePage } from '../query/pagination.js';
import { alternatives } from '../query/alternatives.js';
import { withSavedFilters } from '../query/saved-filters.js';
import { BOOLEAN_MESSAGE, booleanWord } from '../query/parse-value.js';
import type { Row } from '../represent/load-related.js';
import { columnsFor } from '../represent/columns.js';
import { planRender, type RenderPlan } from '../represent/plan.js';
import { prefetchFor, takePrefetched, withPrefetch } from '../represent/prefetch.js';
import { render, type Mode } from '../represent/render.js';
import { listUrl } from '../urls.js';
import { keptOwnerTotalSql, totalSql } from './row-counts.js';
import { columnarColumns, readColumnar } from '../../db/columnar.js';

/**
 * `brief`: a boolean word (booleanWord: true/false, 1/0, yes/no, on/off, any case); absent or
 * empty means the full form. NetBox 3.4 takes any non-empty value as brief, `false` and `0`
 * included; here a false word gives the full form and any other word is a 400 (issue 9).
 */
export function modeOf(params: Params): Mode {
  let brief: boolean | undefined;
  for (const raw of params.get('brief') ?? []) {
    if (raw.trim() === '') continue;
    const b = booleanWord(raw);
    if (b === null) throw Errors.invalidParameter('brief', BOOLEAN_MESSAGE(raw));
    brief ??= b;
  }
  return brief ? 'brief' : 'full';
}

export function excludeOf(params: Params): Set<string> {
  const out = new Set<string>();
  for (const v of params.get('exclude') ?? []) for (const part of v.split(',')) out.add(part.trim());
  return out;
}

export function whereSql(conds: Cond[]) {
  return conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
}

/** The page query of a read, given its select list (`t.*`, or the columns the form reads). */
export type PageQuery = (columns: RawBuilder<unknown>) => RawBuilder<unknown>;

/** `t.<column>, ...` for the columns a form reads (represent/columns.ts), or `t.*` */
function selectList(model: ModelDef, plan: RenderPlan): RawBuilder<unknown> {
  const cols = columnsFor(model, plan);
  return cols ? sql.join(cols.map((c) => sql.ref(`t.${c}`))) : sql`t.*`;
}

/**
 * A read in one statement: the rows of `pageQuery` with what their representation shows
 * prefetched, then rendered. `onRows` sees the stored rows first (the list takes its total off).
 * A page PostgreSQL plans per value (plannedPerValue) reads its rows first, then what they show by
 * their ids, in a second statement; so does a list page of COLUMNAR_MIN_ROWS or more (`size`),
 * whose rows are read as columns (db/columnar.ts).
 */
export async function readAndRender(
  rc: RequestContext,
  model: ModelDef,
  params: Params,
  pageQuery: PageQuery,
  onRows?: (rows: Row[]) => Promise<void>,
  size?: PageSize,
) {
  const mode = modeOf(params);
  const exclude = excludeOf(params);
  const plan = planRender(model, mode, exclude);
  const columnar =
    size && (size.limit === null || size.limit >= COLUMNAR_MIN_ROWS)
      ? await columnarColumns(rc, model.table, columnsFor(model, plan))
      : null;
  let rows: Row[];
  let prefetched;
  if (columnar) {
    rows = await readColumnar(
      rc,
      pageQuery(sql.join(columnar.map(([c]) => sql.ref(`t.${c}`)))),
      columnar,
      size!.withTotal,
    );
    prefetched = await prefetchFor(rc, model, plan, rows);
  } else {
    const page = pageQuery(selectList(model, plan)).compile(rc.q);
    if (size?.alternatives || plannedPerValue(page)) {
      rows = (await rc.q.executeQuery<Row>(page)).rows;
      prefetched = await prefetchFor(rc, model, plan, rows);
    } else {
      rows = (await rc.q.executeQuery<Row>(withPrefetch(rc, model, plan, page))).rows;
      prefetched = takePrefetched(rc, model, plan, rows);
    }
  }
  await onRows?.(rows);
  return render(rc, model, rows, mode, { exclude, prefetched, plan });
}

/** A list page's size, for readAndRender to choose how to read it. */
export interface PageSize {
  /** rows asked for (null: every row) */
  limit: number | null;
  /** whether the page query also selects `__total` */
  withTotal: boolean;
  /**
   * whether the page reads alternatives apart (narrowToAlternatives): each is an index range its
   * values bound, so PostgreSQL plans it per value, whatever operators it is written with
   */
  alternatives?: boolean;
}

/**
 * pages of this many rows or more are read as columns (db/columnar.ts); below it the prefetch's
 * second statement costs more than the rows' parsing saves (pages of 50 addresses or sites read
 * as columns took 10-20 % more CPU)
 */
const COLUMNAR_MIN_ROWS = 200;

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
function plannedPerValue(page: CompiledQuery): boolean {
  return page.parameters.length > 0 && VALUE_ESTIMATED.test(page.sql);
}

const VALUE_ESTIMATED = /\s(?:i?like|similar\s+to|!?~\*?|<<=?|>>=?|&&|@>|<@)\s/i;

/**
 * What a list shows, as conditions: the request's filters with any saved filter it names
 * (`?filter=`), within the caller's view permission. Every reading of a list goes through it (the
 * page, an export).
 */
export async function listConditions(rc: RequestContext, model: ModelDef, params: Params): Promise<Cond[]> {
  return (await listFilters(rc, model, params)).conds;
}

/** The conditions, and the filters they came from (saved filters applied) and whether a permission narrows them. */
async function listFilters(
  rc: RequestContext,
  model: ModelDef,
  params: Params,
): Promise<{ conds: Cond[]; filters: Params; scoped: boolean }> {
  const scope = await requirePermission(rc, model, 'view');
  const filters = await withSavedFilters(rc, model, params, (own) => buildFilters(rc, model, own));
  const conds = await buildFilters(rc, model, filters);
  if (scope) conds.push(scope);
  return { conds, filters, scoped: !!scope };
}

/**
 * One statement per page on both engines: the page rows with their prefetched relations, and -
 * unless the count cache holds it - the total as an uncorrelated sub-select PostgreSQL evaluates
 * once. Only a page past the end, which has no row to carry the total, costs a second statement,
 * and so does a page whose filters PostgreSQL plans per value (plannedPerValue): its prefetch.
 */
export async function listObjects(rc: RequestContext, model: ModelDef, params: Params) {
  const { conds, filters, scoped } = await listFilters(rc, model, params);
  const page = parsePage(rc.app.config, params);
  const where = whereSql(conds);
  const table = sql.table(model.table);
  const order = sql.join(buildOrdering(rc.app.registry, model, params.get('ordering')));
  // The usual page sizes are written into the statement and a zero offset is left out, so the
  // prepared statement gets a good generic plan and is planned once (PostgreSQL's generic plan for
  // `limit $1` assumes a huge page; a custom plan costs ~1 ms of planning per request). Other sizes
  // and offsets stay parameters, so clients cannot mint a statement per page.
  const usualSize = page.limit === rc.app.config.paginateCount || page.limit === rc.app.config.maxPageSize;
  const limit = sql`${page.limit === null ? sql`` : sql`limit ${usualSize ? sql.lit(page.limit) : page.limit}`} ${page.offset ? sql`offset ${page.offset}` : sql``}`;
  const countSql =
    keptOwnerTotalSql(rc, model, filters, scoped) ?? (await totalSql(rc, model.table, where, conds.length > 0));
  const total = cachedTotal(rc, countSql);
  let count = total.n;
  // another request is counting the same rows at the same version: this one waits for its total
  const shared = count === undefined ? total.shared : undefined;
  const withCount = count === undefined && !shared;
  // the total comes last: removing the last property of a row is cheap, while removing the first
  // turned every row of the page into a slow dictionary object (V8)
  const narrowed = narrowToAlternatives(conds, table, order, page);
  const pageWhere = whereSql(narrowed ?? conds);
  const pageQuery: PageQuery = (columns) =>
    sql`select ${columns}${withCount ? sql`, (${countSql}) as __total` : sql``} from ${table} as t ${pageWhere} order by ${order} ${limit}`;
  let results: Row[];
  try {
    results = await readAndRender(
      rc,
      model,
      params,
      pageQuery,
      async (rows) => {
        if (count !== undefined) return;
        if (shared) count = (await shared.catch(() => undefined)) ?? Number((await countSql.execute(rc.q)).rows[0]!.n);
        else if (rows.length) count = Number(rows[0]!.__total);
        else count = page.offset === 0 ? 0 : Number((await countSql.execute(rc.q)).rows[0]!.n);
        total.store(count);
        for (const r of rows) delete r.__total;
      },
      { limit: page.limit, withTotal: withCount, alternatives: narrowed !== null },
    );
  } finally {
    total.settle();
  }
  count = count!;
  return { count, ...pageLinks(listUrl(rc.baseUrl, model), params, page, count), results };
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
function narrowToAlternatives(conds: Cond[], table: Cond, order: Cond, page: Page): Cond[] | null {
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

/** per app: the totals being counted now, by version and cache key (single flight) */
const counting = new WeakMap<object, Map<string, Promise<number>>>();

interface CachedTotal {
  /** the cached total, if any */
  n: number | undefined;
  /** the same total being counted by another request now, if any */
  shared?: Promise<number>;
  store(n: number): void;
  /** done with the total (stored or not): a request waiting for it then counts on its own */
  settle(): void;
}

const UNCACHED: CachedTotal = { n: undefined, store: () => undefined, settle: () => undefined };

/**
 * The cached total of a count statement, and how to store it once counted (core/cache/count-cache.ts).
 * The first request to count a total at a version lets the others arriving meanwhile wait for it
 * (issue 15: when a total of the 1,000,000-address set expired, every request in flight scanned it
 * again, sixteen at once, and none finished within seconds).
 */
function cachedTotal(rc: RequestContext, countSql: RawBuilder<{ n: number }>): CachedTotal {
  const version = rc.app.config.listCountCache ? cacheVersion(rc) : null;
  if (version === null) return UNCACHED;
  const compiled = countSql.compile(rc.q);
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  const store = (m: number) => rc.app.counts.set(key, version, m);
  const n = rc.app.counts.get(key, version);
  if (n !== undefined) return { ...UNCACHED, n };
  let inFlight = counting.get(rc.app);
  if (!inFlight) counting.set(rc.app, (inFlight = new Map()));
  const flightKey = `${version}\u0000${key}`;
  const shared = inFlight.get(flightKey);
  if (shared) return { n: undefined, shared, store, settle: () => undefined };
  let resolve!: (m: number) => void;
  let reject!: (e: Error) => void;
  const mine = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
  mine.catch(() => undefined);
  inFlight.set(flightKey, mine);
  return {
    n: undefined,
    store(m) {
      store(m);
      resolve(m);
    },
    settle() {
      if (inFlight.get(flightKey) === mine) inFlight.delete(flightKey);
      reject(new Error('not counted'));
    },
  };
}

/** One stored row, within the action's scope, or a 404. */
function oneRowSql(model: ModelDef, id: number, scope: Cond | null, columns: RawBuilder<unknown> = sql`t.*`) {
  return sql`select ${columns} from ${sql.table(model.table)} as t where t.id = ${id} ${scope ? sql`and ${scope}` : sql``}`;
}

export async function fetchOne(rc: RequestContext, model: ModelDef, id: number, scope: Cond | null): Promise<Row> {
  const res = await sql<Row>`${oneRowSql(model, id, scope)}`.execute(rc.q);
  if (!res.rows.length) throw Errors.notFound();
  return res.rows[0]!;
}

export async function getObject(rc: RequestContext, model: ModelDef, id: number, params: Params) {
  const scope = await requirePermission(rc, model, 'view');
  const [out] = await readAndRender(rc, model, params, (columns) => oneRowSql(model, id, scope, columns));
  if (!out) throw Errors.notFound();
  return out;
}

/**
 * How many objects of a model the user may view (with `params` as filters), or null when they may
 * view none of that model: the web home page's counts. Uses the list's count cache.
 */
export async function countObjects(
  rc: RequestContext,
  model: ModelDef,
  params: Params = new Map(),
): Promise<number | null> {
  if (!(await hasPermission(rc, model, 'view'))) return null;
  const scope = await requirePermission(rc, model, 'view');
  const conds = await buildFilters(rc, model, params);
  if (scope) conds.push(scope);
  const countSql = await totalSql(rc, model.table, whereSql(conds), conds.length > 0);
  const total = cachedTotal(rc, countSql);
  if (total.n !== undefined) return total.n;
  try {
    const n = (await total.shared?.catch(() => undefined)) ?? Number((await countSql.execute(rc.q)).rows[0]!.n);
    total.store(n);
    return n;
  } finally {
    total.settle();
  }
}
