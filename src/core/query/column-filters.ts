/**
 * The filters a field's column gives (reference 8: each kind's lookups, lookups.ts), the shape every
 * resolved filter has, and NetBox 4's `ancestor` filters of tree models. filters.ts resolves a
 * parameter name to one of these, or to a declared or built-in filter.
 */
import type { RequestContext } from '../context.js';
import type { FieldDef, ModelDef } from '../model/types.js';
import type { Dialect } from '../model/dialect.js';
import { col, fkIdCondition, fkKeyCondition, lookupCondition } from './filter-conditions.js';
import { BOOLEAN_VALUED, type Cond, LOOKUPS_BY_KIND } from './lookups.js';

/** The value type a filter parameter takes, as documented (OpenAPI) and parsed. */
type FilterValueType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time';

/** One accepted query parameter of a model's list. */
export interface ResolvedFilter {
  type: FilterValueType;
  /** repeated values OR (spec: Filtering rules 2); false: the parameter takes one value */
  multi: boolean;
  /** the values it accepts, when it is a choice */
  choices?: ReadonlyArray<string | number>;
  build(rc: RequestContext, raw: string[]): Promise<Cond | null>;
  /** the model's own `<fk>_id` filter, exact: the column whose value it matches (row-counts.ts keptOwnerTotalSql) */
  ownerColumn?: string;
  /** taken only in this API dialect (elsewhere ignored, and left out of the document) */
  dialect?: Dialect;
}

const VALUE_TYPE_BY_KIND: Record<string, FilterValueType> = {
  integer: 'integer',
  decimal: 'number',
  date: 'date',
  datetime: 'date-time',
  boolean: 'boolean',
};

/**
 * NetBox 4.x `ancestor` / `ancestor_id` of a tree model: the objects below the given ones, at any
 * depth (3.4's location `parent` filter). A 3.4 request ignores it, as NetBox 3.4 ignores a
 * parameter it does not know, and 3.4's document does not list it.
 */
export function ancestorFilter(model: ModelDef, base: string, name: string, lookup: string): ResolvedFilter | null {
  if (!exactOrNot(lookup)) return null;
  const key = model.treeParent!;
  // a copy, so the condition takes descendants (filter-conditions.ts tells the field itself apart)
  const f: FieldDef = { ...model.fields[key]!, treeFilter: true };
  const byId = base === 'ancestor_id';
  return {
    type: byId ? 'integer' : 'string',
    multi: true,
    dialect: '4.4',
    build: async (rc, raw) => {
      if (rc.dialect !== '4.4') return null;
      return byId ? fkIdCondition(rc, name, key, f, lookup, raw) : fkKeyCondition(rc, name, key, f, lookup, raw);
    },
  };
}

/** A filter over a kind's lookup table (lookups.ts); null when the table has no such lookup. */
export function tableFilter(
  kind: string,
  column: string,
  lookup: string,
  name: string,
  f?: FieldDef,
): ResolvedFilter | null {
  if (!LOOKUPS_BY_KIND[kind]?.[lookup]) return null;
  const boolValued = BOOLEAN_VALUED.has(lookup);
  const choices = kind === 'choice' ? f!.choices!.choices.map((c) => c.value) : undefined;
  return {
    type: boolValued
      ? 'boolean'
      : kind === 'choice' && f!.choices!.numeric
        ? 'integer'
        : (VALUE_TYPE_BY_KIND[kind] ?? 'string'),
    multi: !boolValued && (lookup === 'exact' || lookup === 'n' || kind in STRING_KINDS),
    ...(choices && !boolValued ? { choices } : {}),
    build: async (rc, raw) => lookupCondition(name, kind, col(column), lookup, scaledValues(rc, f, raw), f),
  };
}

/** Integers filtered in a dialect's unit, in the stored one (FieldDef.scaleIn); anything else as sent. */
function scaledValues(rc: RequestContext, f: FieldDef | undefined, raw: string[]): string[] {
  const n = f?.scaleIn?.[rc.dialect];
  return n ? raw.map((v) => (/^-?\d+$/.test(v.trim()) ? String(Number(v) * n) : v)) : raw;
}

const STRING_KINDS = { string: 1, text: 1, slug: 1 };
export const exactOrNot = (lookup: string) => lookup === 'exact' || lookup === 'n';
