/**
 * Filter building blocks the apps' models share: relations reached through other objects (a
 * device's region is its site's region, under NetBox's name: the engine keys a filter's 400 by the
 * parameter as given), case-insensitive exact names, NetBox's boolean and numeric filters, id
 * lists, join-table filters and interface MAC addresses. They name no app: each takes the fields,
 * tables and columns of the model that uses it.
 */
import { sql } from 'kysely';
import { Errors } from '../errors.js';
import type { CustomFilter } from '../model/types.js';
import { normaliseMac } from '../net/mac.js';
import { type Cond, INTEGER_LOOKUPS, STRING_LOOKUPS } from './lookups.js';
import { namedIds } from './named-ids.js';
import { parseBooleanLookup, parseFilterValue, parseIntegerIn } from './parse-value.js';
import { relatedFilter } from './related-filter.js';

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

/** NetBox TenancyFilterSet: tenant_group and tenant_group_id through the object's `tenant` */
export const tenancyFilters = (): Record<string, CustomFilter> => ({
  tenant_group: relatedFilter(['tenant', 'group']),
  tenant_group_id: relatedFilter(['tenant', 'group'], { byId: true }),
});

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
 * otherwise, as bad input is everywhere (NetBox ignores other values). Repeated values must agree
 * with the first.
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

/**
 * A numeric filter over an SQL expression (mask length, family, child counts), with lookups; a
 * value outside `allowed` (a mask of 129 bits, family 7) is a 400 naming the parameter.
 */
export function numericFilter(
  expr: (alias: string) => Cond,
  param: string,
  lookups: string[] = ['gte', 'lte'],
  allowed?: { min: number; max: number } | number[],
): CustomFilter {
  return {
    type: 'integer',
    lookups,
    async build(values, lookup, { alias }) {
      const name = lookup === 'exact' ? param : `${param}__${lookup}`;
      const nums = values.map((v) =>
        allowed ? parseIntegerIn(name, v, allowed) : parseFilterValue(name, 'integer', v),
      );
      return INTEGER_LOOKUPS[lookup]!(expr(alias), nums, false);
    },
  };
}

/** A filter through a join table: `<own id> in (select own from through where other in values)` */
export function throughFilter(
  param: string,
  through: { table: string; own: string; other: string },
  target: { table: string; key: string },
): CustomFilter {
  return {
    type: target.key === 'id' ? 'integer' : 'string',
    lookups: ['n'],
    async build(values, lookup, { rc, alias }) {
      const ids = await namedIds(rc, lookup === 'n' ? `${param}__n` : param, target.table, target.key, values);
      const c = sql`${sql.ref(`${alias}.id`)} in (select ${sql.ref(through.own)} from ${sql.table(through.table)}
        where ${sql.ref(through.other)} = any(${ids}::bigint[]))`;
      return lookup === 'n' ? sql`not coalesce(${c}, false)` : c;
    },
  };
}
