/**
 * Filters shared by the dcim models: relations reached through other objects (a device's region is
 * its site's region, under NetBox's name: the engine keys a filter's 400 by the parameter as
 * given), case-insensitive exact names, and NetBox's boolean filters.
 */
import { sql } from 'kysely';
import { Errors } from '../../core/errors.js';
import type { CustomFilter } from '../../core/model/types.js';
import { type Cond, STRING_LOOKUPS } from '../../core/query/lookups.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { normaliseMac } from '../../core/net/mac.js';
import { parseBooleanLookup, parseFilterValue } from '../../core/query/parse-value.js';

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
    async build(values, lookup, { alias, param }) {
      const fn = STRING_LOOKUPS[lookup === 'exact' ? 'ie' : lookup]!;
      const c = sql.ref(`${alias}.${column}`);
      if (lookup === 'empty') return fn(c, [parseBooleanLookup(param, values[0]!)], true);
      return fn(c, values, true);
    },
  };
}

/**
 * A boolean filter over a condition: the boolean words (parse-value.ts) and nothing else, a 400
 * otherwise (NetBox ignores other values; issue 9). Repeated values must agree with the first.
 */
export function booleanFilter(cond: (alias: string) => Cond): CustomFilter {
  return {
    type: 'boolean',
    async build(values, _lookup, { alias, param }) {
      const v = values.map((x) => parseFilterValue(param, 'boolean', x))[0]!;
      return v ? cond(alias) : sql`not coalesce(${cond(alias)}, false)`;
    },
  };
}

/** ids-or-null parameter values: a 400 for anything else, as the generated `_id` filters answer */
export function parseIds(param: string, values: string[]): number[] {
  return values.map((v) => {
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v)))
      throw Errors.invalidFilter(param, 'Enter a whole number.');
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
    async build(values, lookup, { alias, param }) {
      const negated = ['n', 'nic', 'nisw', 'niew', 'nie'].includes(lookup);
      const positive = negated ? (lookup === 'n' ? 'exact' : lookup.slice(1)) : lookup;
      // an exact match needs a MAC address; a partial one takes any text
      const macs =
        positive === 'exact'
          ? values.map((v) => parseFilterValue(param, 'mac', v) as string)
          : values.map((v) => normaliseMac(v) ?? v);
      const cond = STRING_LOOKUPS[positive]!(sql.ref('i.mac_address'), macs, true);
      const inner = sql`${sql.ref(`${alias}.id`)} in (select ${sql.ref(`i.${column}`)} from ${sql.table(table)} i where ${cond})`;
      return negated ? sql`not (${inner})` : inner;
    },
  };
}
