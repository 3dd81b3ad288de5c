/**
 * `ordering=a,-b`: earlier names first, '-' reverses; `id` breaks ties so pages are stable.
 * Foreign keys order by the referenced id, counts (`site_count`) by the count. A name that is not
 * an orderable field is a 400 naming `ordering` (NetBox 3.4 drops it silently, reference 5;
 * docs/api-differences.md, "Strict input").
 */
import { sql } from 'kysely';
import { Errors } from '../errors.js';
import type { Registry } from '../model/registry.js';
import type { CountDef, FieldDef, ModelDef } from '../model/types.js';
import { descendantsSql } from '../represent/load-related.js';
import type { Cond } from './lookups.js';

/**
 * Natural sort (site9 < site10): digit runs compared as numbers. A field declared `natural` has a
 * stored column `_<field>_natural` holding natural_sort_key(<field>) in the "C" collation
 * (migration 0090), indexed for the models' default orders.
 */
export function naturalColumn(field: string): string {
  return `_${field}_natural`;
}

/** A count of related rows per listed row, as represent/ counts it (cumulative over a tree's descendants). */
function countColumn(registry: Registry, model: ModelDef, count: CountDef): Cond {
  if (count.generic) {
    const counted = registry.get(count.model!);
    const { type, id } = counted.fields[count.generic]!.generic!;
    return sql`(select count(*) from ${sql.table(counted.table)} as x where ${sql.ref(`x.${type}`)} = ${sql.lit(model.name)} and ${sql.ref(`x.${id}`)} = t.id)`;
  }
  const fk = sql.ref(`x.${count.through ? count.through.column : `${count.via}_id`}`);
  const table = sql.table(count.through ? count.through.table : registry.get(count.model!).table);
  if (count.cumulative && model.treeParent) {
    return sql`(select count(*) from ${table} as x where ${fk} in ${descendantsSql(model, sql`t.id`)})`;
  }
  return sql`(select count(*) from ${table} as x where ${fk} = t.id)`;
}

const UNORDERABLE_KINDS = new Set(['m2m', 'computed', 'generic', 'json', 'password']);

function isOrderableField(f: FieldDef): boolean {
  // a value no column stores (an event rule's event_types) has nothing to order by
  return !f.noOrdering && !f.writeOnly && !f.notStored && !UNORDERABLE_KINDS.has(f.kind);
}

/** Every name `ordering` accepts for a model (the browsable API offers them as hints). */
export function orderingNames(model: ModelDef): string[] {
  const names = ['id', ...(model.timestamps ? ['created', 'last_updated'] : []), ...Object.keys(model.counts)];
  for (const [key, f] of Object.entries(model.fields)) if (isOrderableField(f)) names.push(key);
  return names;
}

function orderColumn(registry: Registry, model: ModelDef, name: string): Cond | null {
  if (name === 'id') return sql.ref('t.id');
  if ((name === 'created' || name === 'last_updated') && model.timestamps) return sql.ref(`t.${name}`);
  if (name in model.counts) return countColumn(registry, model, model.counts[name]!);
  const f = model.fields[name];
  if (!f || !isOrderableField(f)) return null;
  if (f.kind === 'fk') return sql.ref(`t.${name}_id`);
  if (f.natural) return sql.ref(`t.${naturalColumn(name)}`);
  return sql.ref(`t.${name}`);
}

/**
 * The terms built, per registry and model, by the `ordering` values asked (joined): the same few
 * orders come back request after request, and their terms are immutable (Kysely's builders), so
 * each is built once. Bounded per model: cleared past ORDERINGS_KEPT distinct orders.
 */
const built = new WeakMap<Registry, WeakMap<ModelDef, Map<string, readonly Cond[]>>>();
const ORDERINGS_KEPT = 100;

/**
 * The ORDER BY terms of a list: the `ordering` parameter's names (repeated parameters read as one
 * list, earlier first) or the model's default order, then `id`.
 */
export function buildOrdering(registry: Registry, model: ModelDef, requested: string[] | undefined): readonly Cond[] {
  let byModel = built.get(registry);
  if (!byModel) built.set(registry, (byModel = new WeakMap()));
  let orders = byModel.get(model);
  if (!orders) byModel.set(model, (orders = new Map()));
  const key = requested ? requested.join('\u0000') : '';
  let terms = orders.get(key);
  if (!terms) {
    // an unknown name throws here, before anything is kept
    terms = orderingTerms(registry, model, requested);
    if (orders.size >= ORDERINGS_KEPT) orders.clear();
    orders.set(key, terms);
  }
  return terms;
}

function orderingTerms(registry: Registry, model: ModelDef, requested: string[] | undefined): Cond[] {
  const asked = (requested ?? [])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const fromClient = asked.length > 0;
  const out: Cond[] = [];
  let hasId = false;
  for (const raw of fromClient ? asked : model.ordering) {
    const desc = raw.startsWith('-');
    const name = desc ? raw.slice(1) : raw;
    const c = orderColumn(registry, model, name);
    if (!c) {
      if (fromClient)
        throw Errors.invalidParameter('ordering', `Select a valid choice. ${raw} is not one of the available choices.`);
      continue;
    }
    if (name === 'id') hasId = true;
    // PostgreSQL's default null placement (last ascending, first descending), as Django leaves it;
    // it also lets the natural-name index serve the default site order
    out.push(desc ? sql`${c} desc` : sql`${c} asc`);
  }
  if (!hasId) out.push(sql`t.id asc`);
  return out;
}
