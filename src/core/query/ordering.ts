/**
 * `ordering=a,-b`: earlier names first, '-' reverses; unknown names are dropped silently
 * (reference 5). Foreign keys order by the referenced id; `id` breaks ties so pages are stable.
 */
import { sql } from 'kysely';
import type { ModelDef } from '../model/types.js';
import type { Cond } from './lookups.js';

/**
 * Natural sort (site9 < site10): digit runs compared as numbers. A field declared `natural` has a
 * stored column `_<field>_natural` holding natural_sort_key(<field>) in the "C" collation
 * (migration 0090), indexed for the models' default orders.
 */
export function naturalColumn(field: string): string {
  return `_${field}_natural`;
}

function orderColumn(model: ModelDef, name: string): Cond | null {
  if (name === 'id') return sql.ref('t.id');
  if ((name === 'created' || name === 'last_updated') && model.timestamps) return sql.ref(`t.${name}`);
  const f = model.fields[name];
  if (!f || f.noOrdering || f.writeOnly) return null;
  if (f.kind === 'fk') return sql.ref(`t.${name}_id`);
  if (f.kind === 'm2m' || f.kind === 'computed' || f.kind === 'generic' || f.kind === 'json' || f.kind === 'password') return null;
  if (f.natural) return sql.ref(`t.${naturalColumn(name)}`);
  return sql.ref(`t.${name}`);
}

export function buildOrdering(model: ModelDef, requested: string | undefined): Cond[] {
  const names = requested
    ? requested.split(',').map((s) => s.trim()).filter(Boolean)
    : model.ordering;
  const out: Cond[] = [];
  let hasId = false;
  for (const raw of names) {
    const desc = raw.startsWith('-');
    const name = desc ? raw.slice(1) : raw;
    const c = orderColumn(model, name);
    if (!c) continue;
    if (name === 'id') hasId = true;
    // PostgreSQL's default null placement (last ascending, first descending), as Django leaves it;
    // it also lets the natural-name index serve the default site order
    out.push(desc ? sql`${c} desc` : sql`${c} asc`);
  }
  if (!hasId) out.push(sql`t.id asc`);
  return out;
}
