/**
 * The ids a list's filters match, within the user's view permission, in id order: what a bulk page's
 * "all N matching" acts on. Read at commit time from the filters, never from the ids a page showed,
 * so the set is the one the filters mean now (NetBox #17963, #18494: its "select all" acted on a
 * different set than the one shown).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import type { Params } from '../query/filters.js';
import { requirePermission } from '../auth/permissions.js';
import { listConditions, whereSql } from './read.js';

export async function matchingIds(rc: RequestContext, model: ModelDef, params: Params): Promise<number[]> {
  const conds = await listConditions(rc, model, params);
  const res = await sql<{ id: string | number }>`select t.id from ${sql.table(model.table)} as t ${whereSql(conds)}
    order by t.id`.execute(rc.q);
  return res.rows.map((r) => Number(r.id));
}

/** which of `ids` the user may view (the rest no longer exist or are out of reach), in the order given */
async function visibleIds(rc: RequestContext, model: ModelDef, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const conds = await listConditions(rc, model, new Map());
  conds.push(sql`t.id = any(${ids}::bigint[])`);
  const res = await sql<{
    id: string | number;
  }>`select t.id from ${sql.table(model.table)} as t ${whereSql(conds)}`.execute(rc.q);
  const found = new Set(res.rows.map((r) => Number(r.id)));
  return ids.filter((id) => found.has(id));
}

/** which of `ids` the user's `action` permission reaches (its object constraints hold), in the order given */
export async function idsWithin(
  rc: RequestContext,
  model: ModelDef,
  ids: number[],
  action: 'view' | 'change' | 'delete',
): Promise<number[]> {
  if (action === 'view') return visibleIds(rc, model, ids);
  if (!ids.length) return [];
  const scope = await requirePermission(rc, model, action);
  const res = await sql<{ id: string | number }>`select t.id from ${sql.table(model.table)} as t
    where t.id = any(${ids}::bigint[]) ${scope ? sql`and ${scope}` : sql``}`.execute(rc.q);
  const found = new Set(res.rows.map((r) => Number(r.id)));
  return ids.filter((id) => found.has(id));
}

/**
 * Which of `ids` (objects of the model `other.<key>` points at) `other` rows point at: the selected
 * objects a protecting relation keeps from being deleted.
 */
export async function idsPointedAt(rc: RequestContext, other: ModelDef, key: string, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const res = await sql<{ id: string | number }>`select distinct t.${sql.ref(`${key}_id`)} as id
    from ${sql.table(other.table)} as t where t.${sql.ref(`${key}_id`)} = any(${ids}::bigint[])`.execute(rc.q);
  return res.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}
