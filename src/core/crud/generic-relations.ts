/**
 * Generic relations (spec: Generic relations): a contenttype field plus an integer id field name
 * one object of several possible models. Both or neither must be set, the type must be allowed,
 * and the object must exist (checked in one query per type for the whole batch).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { columnOf } from '../model/define-model.js';
import type { ModelDef } from '../model/types.js';
import type { PreparedItem } from './prepare.js';

export async function checkGenericRelations(rc: RequestContext, model: ModelDef, items: PreparedItem[]): Promise<void> {
  const { registry } = rc.app;
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind === 'contenttype') {
      for (const item of items) {
        const v = item.values[key];
        if (typeof v !== 'string') continue;
        const target = registry.find(v);
        if (!target || (f.types && !f.types.includes(v))) item.errors.add(key, `Invalid content type: ${v}`);
      }
    }
    if (f.kind !== 'generic') continue;
    const { type: typeKey, id: idKey } = f.generic!;
    const idCol = columnOf(idKey, model.fields[idKey]!);
    const wanted = new Map<string, Array<{ item: PreparedItem; id: number }>>();
    for (const item of items) {
      if (!(typeKey in item.values) && !(idCol in item.values)) continue;
      // an id already refused (no integer) is not reported missing as well
      if (item.errors.errors[idKey] !== undefined) continue;
      const merged = { ...(item.before ?? {}), ...item.values };
      const type = merged[typeKey] as string | null;
      const id = merged[idCol] as number | null;
      if (type == null && id == null) continue;
      if (type == null) item.errors.add(typeKey, 'This field cannot be null.');
      else if (id == null) item.errors.add(idKey, 'This field cannot be null.');
      else if (item.errors.errors[typeKey] === undefined) {
        const list = wanted.get(type) ?? [];
        list.push({ item, id });
        wanted.set(type, list);
      }
    }
    for (const [type, refs] of wanted) {
      const target = registry.find(type);
      if (!target) continue;
      const ids = [...new Set(refs.map((r) => r.id))];
      const found = await sql<{
        id: number;
      }>`select id from ${sql.table(target.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
      const have = new Set(found.rows.map((r) => Number(r.id)));
      for (const r of refs)
        if (!have.has(r.id)) r.item.errors.add(idKey, `Related object not found using the provided value: ${r.id}.`);
    }
  }
}
