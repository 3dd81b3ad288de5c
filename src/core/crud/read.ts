/**
 * Reads: a list page (listObjects), a detail (getObject), a count (countObjects). Each read is
 * planned once (read-plan.ts planRead: how its rows and its total are read, and why), then carried
 * out case by case (readRows, totalOf). All are scoped by the user's view constraints. The README
 * of this folder follows a list read step by step and holds the plan's decision table.
 */
import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { columnarColumns, type ColumnarColumns, readColumnar } from '../../db/columnar.js';
import { hasPermission, requirePermission } from '../auth/permissions.js';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import type { ModelDef, Row } from '../model/types.js';
import { buildFilters, type Params } from '../query/filters.js';
import type { Cond } from '../query/lookups.js';
import { buildOrdering } from '../query/ordering.js';
import { cursorLinks, type Page, pageLinks, parsePage } from '../query/pagination.js';
import { withSavedFilters } from '../query/saved-filters.js';
import { columnsFor } from '../represent/columns.js';
import { type Prefetched, prefetchFor, takePrefetched, withPrefetch } from '../represent/prefetch.js';
import { render } from '../represent/render.js';
import { type Form, formOf } from './read-form.js';
import { etagColumn, etagOf } from './etag.js';
import { listUrl } from '../urls.js';
import { listPageQuery, narrowToAlternatives, type PageQuery, whereSql } from './list-page.js';
import { type CachedTotal, cachedTotal } from './list-total.js';
import { plannedPerValue, planRead, type ReadFacts, type ReadPlan } from './read-plan.js';
import { keptOwnerTotalSql, totalSql } from './row-counts.js';

// an export reads its list's conditions as a list page does (core/templates/export-list.ts)
export { whereSql } from './list-page.js';

/**
 * A list page: what it shows (filters within the view scope), its page, its form, its total's
 * statement and whether the count cache has it, its page statement; then the plan, and the rows
 * and the total as planned, rendered with the page's links.
 */
export async function listObjects(rc: RequestContext, model: ModelDef, params: Params) {
  const { conds, filters, scoped } = await listFilters(rc, model, params);
  const page = parsePage(rc.app.config, params);
  const table = sql.table(model.table);
  const order = sql.join(buildOrdering(rc.app.registry, model, params.get('ordering')));
  const form = formOf(rc, model, params);
  const countSql =
    keptOwnerTotalSql(rc, model, filters, scoped) ??
    (await totalSql(rc, model.table, whereSql(conds), conds.length > 0));
  const total = cachedTotal(rc, countSql);
  try {
    const narrowed = narrowToAlternatives(conds, table, order, page);
    const query = listPageQuery(rc, table, whereSql(narrowed ?? conds), order, page, countSql);
    const facts = new PageFacts(rc, model, form, query, page, total.state, narrowed !== null);
    const plan = await planRead(facts);
    const read = await readRows(rc, model, form, plan, facts);
    const count = await totalOf(rc, plan, read.rows, total, countSql);
    const results = await renderRead(rc, model, form, read);
    return { count, ...pageLinks(listUrl(rc.baseUrl, model), params, page, count), results };
  } finally {
    // stored or not: a request waiting for this total counts on its own
    total.settle();
  }
}

/**
 * A cursor page (NetBox 4.6 `?start=`, query/pagination.ts parseCursor): the objects from id
 * `start` on, in id order, read as a list page is but with no total (`count` null: counting is
 * what NetBox's cursor mode saves).
 */
export async function listFromCursor(rc: RequestContext, model: ModelDef, params: Params, start: number) {
  const { conds } = await listFilters(rc, model, params);
  const page = { limit: parsePage(rc.app.config, params).limit, offset: 0 };
  const where = whereSql([...conds, sql`t.id >= ${start}`]);
  const query = listPageQuery(rc, sql.table(model.table), where, sql`t.id`, page, null);
  const form = formOf(rc, model, params);
  // a page with no total: planned without one (read-plan.ts, `none`)
  const facts = new PageFacts(rc, model, form, query, page);
  const read = await readRows(rc, model, form, await planRead(facts), facts);
  const links = cursorLinks(
    listUrl(rc.baseUrl, model),
    params,
    page.limit,
    read.rows.map((r) => Number(r.id)),
  );
  return { count: null, ...links, results: await renderRead(rc, model, form, read) };
}

/**
 * A detail, or an export's chunk of a list: planned and read as a list page is, with no total.
 * `takeRows` sees the rows read before they are rendered (a detail's ETag column, taken off them).
 */
export async function readAndRender(
  rc: RequestContext,
  model: ModelDef,
  params: Params,
  pageQuery: PageQuery,
  takeRows?: (rows: Row[]) => void,
) {
  const form = formOf(rc, model, params);
  const facts = new PageFacts(rc, model, form, pageQuery);
  const read = await readRows(rc, model, form, await planRead(facts), facts);
  takeRows?.(read.rows);
  return renderRead(rc, model, form, read);
}

/** The facts a read's plan is made of (read-plan.ts ReadFacts), each found when the plan asks. */
class PageFacts implements ReadFacts {
  /** the columns a columnar read takes, once readableAsColumns has found them */
  columns: ColumnarColumns | null = null;
  private compiled: { withTotal: boolean; query: CompiledQuery } | null = null;

  constructor(
    private readonly rc: RequestContext,
    private readonly model: ModelDef,
    private readonly form: Form,
    readonly query: PageQuery,
    readonly page?: Page,
    readonly total?: CachedTotal['state'],
    readonly alternatives = false,
  ) {}

  async readableAsColumns(): Promise<boolean> {
    this.columns = await columnarColumns(this.rc, this.model.table, columnsFor(this.model, this.form.shown));
    return this.columns !== null;
  }

  plannedPerValue(withTotal: boolean): boolean {
    return plannedPerValue(this.statement(withTotal));
  }

  /** the page statement as rows, selecting the columns the form reads (or `t.*`) */
  statement(withTotal: boolean): CompiledQuery {
    if (this.compiled?.withTotal !== withTotal) {
      const cols = columnsFor(this.model, this.form.shown);
      const select = cols ? sql.join(cols.map((c) => sql.ref(`t.${c}`))) : sql`t.*`;
      this.compiled = { withTotal, query: this.query(select, withTotal).compile(this.rc.q) };
    }
    return this.compiled.query;
  }
}

interface RowsRead {
  rows: Row[];
  /** what the representation shows beyond the rows, read with them or by their ids */
  prefetched: Prefetched | undefined;
}

/** The page's rows and what they show, the way the plan says (read-plan.ts RowsWay). */
async function readRows(
  rc: RequestContext,
  model: ModelDef,
  form: Form,
  plan: ReadPlan,
  facts: PageFacts,
): Promise<RowsRead> {
  const withTotal = plan.total === 'with-page';
  switch (plan.rows) {
    case 'columnar': {
      const columns = facts.columns!;
      const select = sql.join(columns.map(([c]) => sql.ref(`t.${c}`)));
      const rows = await readColumnar(rc, facts.query(select, withTotal), columns, withTotal);
      return { rows, prefetched: await prefetchFor(rc, model, form.shown, rows) };
    }
    case 'alternatives':
    case 'per-value': {
      const rows = (await rc.q.executeQuery<Row>(facts.statement(withTotal))).rows;
      return { rows, prefetched: await prefetchFor(rc, model, form.shown, rows) };
    }
    case 'prefetched': {
      const page = withPrefetch(rc, model, form.shown, facts.statement(withTotal));
      const rows = (await rc.q.executeQuery<Row>(page)).rows;
      return { rows, prefetched: takePrefetched(rc, model, form.shown, rows) };
    }
  }
}

/** A list's total, the way the plan says (read-plan.ts TotalWay); a counted one goes to the cache. */
async function totalOf(
  rc: RequestContext,
  plan: ReadPlan,
  rows: Row[],
  total: CachedTotal,
  countSql: RawBuilder<{ n: number }>,
): Promise<number> {
  const countAlone = async () => Number((await countSql.execute(rc.q)).rows[0]!.n);
  let n: number;
  switch (plan.total) {
    case 'cached':
      return total.n!;
    case 'shared':
      n = (await total.shared!.catch(() => undefined)) ?? (await countAlone());
      break;
    case 'with-page':
      if (rows.length) {
        n = Number(rows[0]!.__total);
        for (const r of rows) delete r.__total;
      } else n = plan.emptyPage === 'zero' ? 0 : await countAlone();
      break;
    case 'none':
      throw new Error('a list page was planned without a total');
  }
  total.store(n);
  return n;
}

function renderRead(rc: RequestContext, model: ModelDef, form: Form, read: RowsRead) {
  return render(rc, model, read.rows, form.mode, {
    exclude: form.exclude,
    prefetched: read.prefetched,
    plan: form.shown,
  });
}

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
  return (await getObjectWithEtag(rc, model, id, params)).object;
}

/**
 * A detail and its ETag (etag.ts). The tag's timestamp is selected beside the form's columns, under
 * a name of its own (a brief form reads no timestamp), and taken off the row before it is rendered.
 */
export async function getObjectWithEtag(rc: RequestContext, model: ModelDef, id: number, params: Params) {
  const scope = await requirePermission(rc, model, 'view');
  const column = etagColumn(model);
  let etag: string | null = null;
  const [object] = await readAndRender(
    rc,
    model,
    params,
    (columns) =>
      oneRowSql(model, id, scope, column ? sql`${columns}, ${sql.ref(`t.${column}`)} as __etag_time` : columns),
    ([row]) => {
      if (!row || !column) return;
      etag = etagOf(model, { [column]: row.__etag_time });
      delete row.__etag_time;
    },
  );
  if (!object) throw Errors.notFound();
  return { object, etag: etag as string | null };
}

/**
 * How many objects of a model the user may view (with `params` as filters), or null when they may
 * view none of that model (a picker's, an address window's; the dashboard counts several at once
 * with count-each.ts). Uses the list's count cache.
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
