/**
 * How many objects of a model the user may view, per value of one of its fk columns, with the
 * REST list's filters: one grouped statement (a site's devices by role). Null when the user may
 * view none of the model.
 */
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../auth/permissions.js';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import { buildFilters, type Params } from '../query/filters.js';
import { whereSql } from './list-page.js';

export async function countsBy(
  rc: RequestContext,
  model: ModelDef,
  fk: string,
  params: Params,
): Promise<Map<number | null, number> | null> {
  const f = model.fields[fk];
  if (f?.kind !== 'fk') throw new Error(`${model.name}.${fk} is not a foreign key`);
  if (!(await hasPermission(rc, model, 'view'))) return null;
  const scope = await requirePermission(rc, model, 'view');
  const conds = await buildFilters(rc, model, params);
  if (scope) conds.push(scope);
  const column = sql.ref(`t.${f.column ?? `${fk}_id`}`);
  const res = await sql<{ k: string | null; n: number }>`select ${column} as k, count(*)::int as n
    from ${sql.table(model.table)} as t ${whereSql(conds)} group by ${column}`.execute(rc.q);
  return new Map(res.rows.map((r) => [r.k === null ? null : Number(r.k), Number(r.n)]));
}
