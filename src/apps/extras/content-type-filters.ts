/**
 * Filters of a `content_types` list (custom fields, event rules, webhooks): NetBox filters such a
 * field through its content types, so `content_types` takes the string lookups on each member
 * (`content_types__ic=dcim.`) and `content_type_id` the integer lookups on the members' ids in
 * extras_contenttype. A member matching makes the object match; a negated lookup matches objects
 * none of whose members match.
 */
import { type RawBuilder, sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { INTEGER_LOOKUPS, STRING_LOOKUPS } from '../../core/query/lookups.js';
import { parseFilterValue } from '../../core/query/parse-value.js';
import { contentTypeValues } from '../../core/query/filter-conditions.js';

/** the SQL of an object's list of content types, from its table alias */
type ListOf = (alias: string) => RawBuilder<unknown>;

const NEGATED: Record<string, string> = { n: 'exact', nic: 'ic', nie: 'ie', nisw: 'isw', niew: 'iew' };

function membersFilter(list: ListOf): CustomFilter {
  return {
    lookups: ['n', 'ic', 'nic', 'ie', 'nie', 'isw', 'nisw', 'iew', 'niew'],
    type: 'string',
    async build(values, lookup, { alias, param, rc }) {
      // an exact match names registered models (strict input: an unknown content type is a 400); a partial one any text
      if (lookup === 'exact' || lookup === 'n') contentTypeValues(rc, param, { kind: 'contenttype' }, values);
      const positive = NEGATED[lookup] ?? lookup;
      const member = STRING_LOOKUPS[positive]!(sql.ref('member'), values, false);
      const any = sql`exists (select 1 from unnest(${list(alias)}) as member where ${member})`;
      return NEGATED[lookup] ? sql`not ${any}` : any;
    },
  };
}

function idFilter(list: ListOf): CustomFilter {
  return {
    lookups: ['n', 'lt', 'lte', 'gt', 'gte', 'empty'],
    type: 'integer',
    async build(values, lookup, { alias, param }) {
      const column = list(alias);
      if (lookup === 'empty') {
        const empty = parseFilterValue(param, 'boolean', values[0] ?? '');
        return empty ? sql`cardinality(${column}) = 0` : sql`cardinality(${column}) > 0`;
      }
      const ids = values.map((v) => parseFilterValue(param, 'id', v));
      const positive = lookup === 'n' ? 'exact' : lookup;
      const match = INTEGER_LOOKUPS[positive]!(sql.ref('ct.id'), ids, false);
      const any = sql`exists (select 1 from extras_contenttype ct where ct.app_label || '.' || ct.model = any(${column}) and ${match})`;
      return lookup === 'n' ? sql`not ${any}` : any;
    },
  };
}

/** `content_types` and `content_type_id` over the model's own `content_types` column */
export const contentTypesFilters = contentTypesFiltersOf((alias) => sql.ref(`${alias}.content_types`));

/**
 * NetBox 4.0's names of the same two filters (`object_type`, `object_type_id`; extras/filtersets.py
 * of 4.0 on): a 4.4 client filters custom fields, custom links, export templates, saved filters and
 * event rules by them (Netbox44.filters).
 */
export const objectTypesFilters = {
  object_type: membersFilter((alias) => sql.ref(`${alias}.content_types`)),
  object_type_id: idFilter((alias) => sql.ref(`${alias}.content_types`)),
};

/** the same filters over another list of content types (a webhook's: its own event rule's) */
export function contentTypesFiltersOf(list: ListOf): Record<string, CustomFilter> {
  return { content_types: membersFilter(list), content_type_id: idFilter(list) };
}

/**
 * `<field>_id` of one content type field (a bookmark's `object_type_id`): the integer lookups on
 * the id of the content type in extras_contenttype.
 */
export function contentTypeIdFilter(column: string): CustomFilter {
  return {
    lookups: ['n', 'lt', 'lte', 'gt', 'gte', 'empty'],
    type: 'integer',
    async build(values, lookup, { alias, param }) {
      const ctId = sql`(select ct.id from extras_contenttype ct where ct.app_label || '.' || ct.model = ${sql.ref(`${alias}.${column}`)})`;
      if (lookup === 'empty') {
        const empty = parseFilterValue(param, 'boolean', values[0] ?? '');
        return empty ? sql`${ctId} is null` : sql`${ctId} is not null`;
      }
      const ids = values.map((v) => parseFilterValue(param, 'id', v));
      const positive = lookup === 'n' ? 'exact' : lookup;
      const match = INTEGER_LOOKUPS[positive]!(ctId, ids, false);
      return lookup === 'n' ? sql`not coalesce(${match}, false)` : match;
    },
  };
}
