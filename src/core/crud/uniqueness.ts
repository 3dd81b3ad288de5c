/**
 * Uniqueness checks before writing, for NetBox's messages (unique-messages.ts): single-field
 * (`site with this Name already exists.`, one query per field for the whole batch) and composite
 * (`__all__`). Items of
 * the same batch are checked against each other too. The database constraints stay the last word.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { columnOf } from '../model/define-model.js';
import type { FieldDef, ModelDef, UniqueTogether } from '../model/types.js';
import type { PreparedItem } from './prepare.js';
import { uniqueFieldMessage, uniqueTogetherMessage } from './unique-messages.js';

const norm = (v: unknown, ci: boolean) => (ci && typeof v === 'string' ? v.toLowerCase() : String(v));

async function checkField(rc: RequestContext, model: ModelDef, key: string, f: FieldDef, items: PreparedItem[]) {
  const ci = typeof f.unique === 'object' && !!f.unique.ci;
  const column = columnOf(key, f);
  // every unique field is checked, so one answer names all of them (as DRF does)
  const candidates = items.filter((i) => column in i.values && i.values[column] !== null && i.values[column] !== '');
  if (!candidates.length) return;
  const values = [...new Set(candidates.map((i) => norm(i.values[column], ci)))];
  const c = sql.ref(column);
  const found = await sql<{ id: number; v: string }>`select id, ${ci ? sql`lower(${c}::text)` : sql`${c}::text`} as v
    from ${sql.table(model.table)} where ${ci ? sql`lower(${c}::text)` : sql`${c}::text`} = any(${values})`.execute(rc.q);
  const owner = new Map<string, number>();
  for (const r of found.rows) owner.set(r.v, Number(r.id));
  const message = uniqueFieldMessage(model, key);
  const seen = new Map<string, PreparedItem>();
  for (const item of candidates) {
    const v = norm(item.values[column], ci);
    const existing = owner.get(v);
    // an update may keep its own value, unless another item of the batch takes it
    if ((existing !== undefined && existing !== item.id) || seen.has(v)) item.errors.add(key, message);
    seen.set(v, item);
  }
}

async function checkTogether(rc: RequestContext, model: ModelDef, u: UniqueTogether, items: PreparedItem[]) {
  const seen = new Set<string>();
  for (const item of items) {
    if (!item.errors.empty) continue;
    const merged = { ...(item.before ?? {}), ...item.values };
    const cols = u.fields.map((k) => columnOf(k, model.fields[k]!));
    const touched = cols.some((c) => c in item.values) || item.id === null;
    if (!touched) continue;
    if (u.whenNull && !u.whenNull.every((k) => merged[columnOf(k, model.fields[k]!)] == null)) continue;
    const vals = cols.map((c) => merged[c]);
    if (vals.some((v, i) => v == null && !u.whenNull?.includes(u.fields[i]!))) continue;
    const conds = cols.map((c, i) => {
      const v = vals[i];
      if (v == null) return sql`${sql.ref(c)} is null`;
      return u.ci && typeof v === 'string' ? sql`lower(${sql.ref(c)}::text) = ${v.toLowerCase()}` : sql`${sql.ref(c)}::text = ${String(v)}`;
    });
    for (const k of u.whenNull ?? []) conds.push(sql`${sql.ref(columnOf(k, model.fields[k]!))} is null`);
    const key = vals.map((v) => norm(v, !!u.ci)).join('\u0000');
    const found = await sql<{ id: number }>`select id from ${sql.table(model.table)} where ${sql.join(conds, sql` and `)}
      and id is distinct from ${item.id} limit 1`.execute(rc.q);
    if (found.rows.length || seen.has(key)) item.errors.add('__all__', uniqueTogetherMessage(model, u));
    seen.add(key);
  }
}

export async function checkUniqueness(rc: RequestContext, model: ModelDef, items: PreparedItem[]): Promise<void> {
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.unique) await checkField(rc, model, key, f, items);
  }
  for (const u of model.uniqueTogether) await checkTogether(rc, model, u, items);
}
