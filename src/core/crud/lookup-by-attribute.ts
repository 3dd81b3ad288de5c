/**
 * Objects named by one attribute, many names at once: an import's related columns (a device's
 * `site` by name, its `device_type` by model) are resolved with one statement per target model and
 * attribute for all rows, within the user's view permission. Each match carries the foreign keys
 * asked for, so a caller can narrow a name that several objects share (a rack's name within a site).
 */
import { sql } from 'kysely';
import { requirePermission } from '../auth/permissions.js';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';

export interface NamedObject {
  id: number;
  /** the asked foreign keys' ids, by field key (null when unset) */
  fks: Record<string, number | null>;
}

/**
 * The objects of `model` the user may view whose `attr` (compared as text) is one of `names`, by
 * name. `attr` is a stored field key or `id`; `fks` are fk field keys of `model`.
 */
export async function objectsByAttribute(
  rc: RequestContext,
  model: ModelDef,
  attr: string,
  names: string[],
  fks: string[] = [],
): Promise<Map<string, NamedObject[]>> {
  const out = new Map<string, NamedObject[]>();
  if (!names.length) return out;
  const scope = await requirePermission(rc, model, 'view');
  const extra = fks.map((k) => sql`, ${sql.ref(`t.${k}_id`)} as ${sql.ref(`fk_${k}`)}`);
  const column = sql.ref(`t.${attr}`);
  const rows = await sql<
    Record<string, unknown>
  >`select t.id, ${column}::text as name ${extra.length ? sql.join(extra, sql``) : sql``}
    from ${sql.table(model.table)} as t where ${column}::text = any(${names}::text[])
    ${scope ? sql`and ${scope}` : sql``}`.execute(rc.q);
  for (const r of rows.rows) {
    const fk: Record<string, number | null> = {};
    for (const k of fks) fk[k] = r[`fk_${k}`] === null ? null : Number(r[`fk_${k}`]);
    const name = String(r.name);
    const list = out.get(name);
    const obj = { id: Number(r.id), fks: fk };
    if (list) list.push(obj);
    else out.set(name, [obj]);
  }
  return out;
}
