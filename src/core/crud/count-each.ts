/**
 * The totals of several models under the same filters (the web dashboard's object counts), each
 * read as countObjects (read.ts) reads one: only for a model the user may view, within their view
 * scope, from the kept row counts when nothing narrows it, through the count cache. The totals
 * the cache lacks are read in one statement of scalar subqueries rather than one round trip per
 * model, so a dashboard of twenty counts costs one statement per widget.
 */
import { type RawBuilder, sql } from 'kysely';
import { hasPermission, requirePermission } from '../auth/permissions.js';
import type { RequestContext } from '../context.js';
import { ApiError } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { buildFilters, type Params } from '../query/filters.js';
import { whereSql } from './list-page.js';
import { type CachedTotal, cachedTotal } from './list-total.js';
import { totalSql } from './row-counts.js';

/** a model's total; `hidden` when the user may view none of it; `error` when the filters are refused (4xx) */
export type CountOutcome = { n: number } | { hidden: true } | { error: ApiError };

export async function countEach(rc: RequestContext, models: ModelDef[], params: Params): Promise<CountOutcome[]> {
  const out: CountOutcome[] = [];
  const pending: Array<{ i: number; total: CachedTotal; count: RawBuilder<{ n: number }> }> = [];
  try {
    for (const [i, model] of models.entries()) {
      if (!(await hasPermission(rc, model, 'view'))) {
        out[i] = { hidden: true };
        continue;
      }
      try {
        const scope = await requirePermission(rc, model, 'view');
        const conds = await buildFilters(rc, model, params);
        if (scope) conds.push(scope);
        const countSql = await totalSql(rc, model.table, whereSql(conds), conds.length > 0);
        const total = cachedTotal(rc, countSql);
        if (total.n !== undefined) out[i] = { n: total.n };
        else pending.push({ i, total, count: countSql });
      } catch (err) {
        if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
        out[i] = { error: err };
      }
    }
    if (pending.length) {
      const columns = pending.map((p, k) => sql`(${p.count}) as ${sql.ref(`c${k}`)}`);
      const row = (await sql<Record<string, number>>`select ${sql.join(columns)}`.execute(rc.q)).rows[0]!;
      for (const [k, p] of pending.entries()) {
        const n = Number(row[`c${k}`]);
        p.total.store(n);
        out[p.i] = { n };
      }
    }
    return out;
  } finally {
    for (const p of pending) p.total.settle();
  }
}
