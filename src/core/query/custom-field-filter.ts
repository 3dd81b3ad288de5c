/**
 * `cf_<name>` filters over the jsonb `custom_field_data` column. Text-like fields match loosely
 * (contains, case-insensitive) or exactly, as the field's filter_logic says (spec: Filtering rules 3).
 */
import { sql } from 'kysely';
import type { CustomFieldDef } from '../context.js';
import { type Cond, NUMERIC_LOOKUPS, STRING_LOOKUPS, EXACT_LOOKUPS, BOOLEAN_VALUED } from './lookups.js';
import { parseBooleanLookup, parseFilterValue } from './parse-value.js';
import { Errors } from '../errors.js';

const TEXT_TYPES = new Set(['text', 'longtext', 'url']);

/** a select field's filter value is one of its choices (django-filter's ChoiceFilter answers the same) */
function choiceValues(param: string, cf: CustomFieldDef, raw: string[]): string[] {
  for (const v of raw) {
    if (!(cf.choices ?? []).includes(v))
      throw Errors.invalidFilter(param, `Select a valid choice. ${v} is not one of the available choices.`);
  }
  return raw;
}

export function customFieldCondition(param: string, cf: CustomFieldDef, lookup: string, raw: string[]): Cond | null {
  if (cf.filter_logic === 'disabled') return null;
  const text = sql`(t.custom_field_data ->> ${cf.name})`;
  const json = sql`(t.custom_field_data -> ${cf.name})`;
  if (BOOLEAN_VALUED.has(lookup)) {
    const empty = parseBooleanLookup(param, raw[0]!);
    return empty ? sql`coalesce(${text}, '') = ''` : sql`coalesce(${text}, '') <> ''`;
  }
  if (TEXT_TYPES.has(cf.type)) {
    // loose: the plain filter is a case-insensitive contains
    const l = lookup === 'exact' && cf.filter_logic === 'loose' ? 'ic' : lookup;
    return STRING_LOOKUPS[l]?.(text, raw, true) ?? null;
  }
  if (cf.type === 'integer' || cf.type === 'decimal' || cf.type === 'date') {
    const kind = cf.type === 'date' ? 'date' : cf.type;
    const fn = NUMERIC_LOOKUPS[lookup];
    if (!fn) return null;
    const values = raw.map((r) => parseFilterValue(param, kind, r));
    const column = cf.type === 'date' ? sql`(${text})::date` : sql`(${text})::numeric`;
    return fn(column, values, true);
  }
  if (cf.type === 'boolean') {
    if (lookup !== 'exact') return null;
    const values = raw.map((r) => parseFilterValue(param, 'boolean', r));
    return sql`(${json}) = any(${values.map((v) => JSON.stringify(v))}::jsonb[])`;
  }
  if (cf.type === 'select') {
    const fn = EXACT_LOOKUPS[lookup];
    return fn ? fn(text, choiceValues(param, cf, raw), true) : null;
  }
  if (cf.type === 'object') {
    const ids = raw.map((r) => String(parseFilterValue(param, 'id', r)));
    return EXACT_LOOKUPS[lookup]?.(text, ids, true) ?? null;
  }
  if (cf.type === 'multiselect' || cf.type === 'multiobject') {
    if (lookup !== 'exact' && lookup !== 'n') return null;
    const items =
      cf.type === 'multiobject' ? raw.map((r) => parseFilterValue(param, 'id', r)) : choiceValues(param, cf, raw);
    const c = sql`(${sql.join(
      items.map((v) => sql`coalesce(${json}, '[]'::jsonb) @> ${JSON.stringify([v])}::jsonb`),
      sql` or `,
    )})`;
    return lookup === 'n' ? sql`not ${c}` : c;
  }
  return null;
}
