/**
 * Filters shared by the dcim models: relations reached through other objects (a device's region is
 * its site's region), case-insensitive exact names, and NetBox's boolean filters.
 */
import { sql } from 'kysely';
import { Errors } from '../../core/errors.js';
import type { CustomFilter } from '../../core/model/types.js';
import { type Cond, STRING_LOOKUPS } from '../../core/query/lookups.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { normaliseMac } from '../../core/net/mac.js';


/** `<name>` and `<name>_id` pairs of a relation reached through `path` (both NetBox names) */
export function viaPair(name: string, path: string[]): Record<string, CustomFilter> {
  // a bad value is reported under the name the client sent (core/query/filters.ts)
  return { [name]: relatedFilter(path), [`${name}_id`]: relatedFilter(path, { byId: true }) };
}

/** region, site_group (and their _id forms) through the site the object belongs to */
export function siteScope(pathToSite: string[]): Record<string, CustomFilter> {
  return {
    ...viaPair('region', [...pathToSite, 'region']),
    ...viaPair('site_group', [...pathToSite, 'group']),
  };
}

const STRING_SUFFIXES = Object.keys(STRING_LOOKUPS).filter((k) => k !== 'exact');

/** A string field whose exact filter ignores case (NetBox: Device `name` and `serial` use iexact). */
export function iexact(column: string): CustomFilter {
  return {
    type: 'string',
    lookups: STRING_SUFFIXES,
    async build(values, lookup, { alias }) {
      const fn = STRING_LOOKUPS[lookup === 'exact' ? 'ie' : lookup]!;
      const c = sql.ref(`${alias}.${column}`);
      if (lookup === 'empty') return fn(c, [/^(true|1)$/i.test(values[0] ?? '')], true);
      return fn(c, values, true);
    },
  };
}

/** NetBox boolean filters: only true/false (any case) count, other values are ignored */
export function booleanFilter(cond: (alias: string) => Cond): CustomFilter {
  return {
    type: 'boolean',
    async build(values, _lookup, { alias }) {
      const v = values.find((x) => /^(true|false)$/i.test(x));
      if (v === undefined) return null;
      return v.toLowerCase() === 'true' ? cond(alias) : sql`not coalesce(${cond(alias)}, false)`;
    },
  };
}

/** ids-or-null parameter values: a 400 for anything else, as the generated `_id` filters answer */
export function parseIds(param: string, values: string[]): number[] {
  return values.map((v) => {
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) throw Errors.invalidFilter(param, 'Enter a whole number.');
    return Number(v);
  });
}

/**
 * NetBox 3.4 `mac_address` on devices and virtual machines: owners having an interface with this
 * MAC address (all string lookups). `table`/`column`: the interface table and its owner column.
 */
export function interfaceMacFilter(table: string, column: string): CustomFilter {
  return {
    type: 'string',
    lookups: ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie'],
    async build(values, lookup, { alias }) {
      const negated = ['n', 'nic', 'nisw', 'niew', 'nie'].includes(lookup);
      const positive = negated ? (lookup === 'n' ? 'exact' : lookup.slice(1)) : lookup;
      const cond = STRING_LOOKUPS[positive]!(sql.ref('i.mac_address'), values.map((v) => normaliseMac(v) ?? v), true);
      const inner = sql`${sql.ref(`${alias}.id`)} in (select ${sql.ref(`i.${column}`)} from ${sql.table(table)} i where ${cond})`;
      return negated ? sql`not (${inner})` : inner;
    },
  };
}
