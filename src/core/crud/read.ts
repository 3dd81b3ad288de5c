/**
 * Reads: a list is one page query plus one count, run concurrently on PostgreSQL, then batched
 * rendering; a detail is one row. Both are scoped by the user's view constraints.
 */
import { sql } from 'kysely';
import { requirePermission } from '../auth/permissions.js';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { buildFilters, type Params } from '../query/filters.js';
import type { Cond } from '../query/lookups.js';
import { buildOrdering } from '../query/ordering.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import type { Row } from '../represent/load-related.js';
import { render, type Mode } from '../represent/render.js';
import { listUrl } from '../urls.js';

/** NetBox 3.4: any non-empty `brief` value selects the brief form */
export function modeOf(params: Params): Mode {
  const b = params.get('brief')?.[0];
  return b !== undefined && b !== '' ? 'brief' : 'full';
}

export function excludeOf(params: Params): Set<string> {
  const out = new Set<string>();
  for (const v of params.get('exclude') ?? []) for (const part of v.split(',')) out.add(part.trim());
  return out;
}

function whereSql(conds: Cond[]) {
  return conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
}

export async function listObjects(rc: RequestContext, model: ModelDef, params: Params) {
  const scope = await requirePermission(rc, model, 'view');
  const conds = await buildFilters(rc, model, params);
  if (scope) conds.push(scope);
  const page = parsePage(rc.app.config, params);
  const where = whereSql(conds);
  const table = sql.table(model.table);
  const order = sql.join(buildOrdering(model, params.get('ordering')?.[0]));
  const limit = page.limit === null ? sql`` : sql`limit ${page.limit}`;
  const pageQuery = () => sql<Row>`select t.* from ${table} as t ${where} order by ${order} ${limit} offset ${page.offset}`.execute(rc.q);
  const countQuery = () => sql<{ n: number }>`select count(*)::int as n from ${table} as t ${where}`.execute(rc.q);
  let rowsRes, countRes;
  if (rc.app.db.concurrent) [rowsRes, countRes] = await Promise.all([pageQuery(), countQuery()]);
  else {
    rowsRes = await pageQuery();
    // the count is the page length when the page is the first and not full
    countRes = page.offset === 0 && (page.limit === null || rowsRes.rows.length < page.limit)
      ? { rows: [{ n: rowsRes.rows.length }] }
      : await countQuery();
  }
  const count = Number(countRes.rows[0]!.n);
  const results = await render(rc, model, rowsRes.rows, modeOf(params), { exclude: excludeOf(params) });
  return { count, ...pageLinks(listUrl(rc.baseUrl, model), params, page, count), results };
}

/** One stored row, within the action's scope, or a 404. */
export async function fetchOne(rc: RequestContext, model: ModelDef, id: number, scope: Cond | null): Promise<Row> {
  const res = await sql<Row>`select t.* from ${sql.table(model.table)} as t where t.id = ${id}
    ${scope ? sql`and ${scope}` : sql``}`.execute(rc.q);
  if (!res.rows.length) throw Errors.notFound();
  return res.rows[0]!;
}

export async function getObject(rc: RequestContext, model: ModelDef, id: number, params: Params) {
  const scope = await requirePermission(rc, model, 'view');
  const row = await fetchOne(rc, model, id, scope);
  const [out] = await render(rc, model, [row], modeOf(params), { exclude: excludeOf(params) });
  return out!;
}
