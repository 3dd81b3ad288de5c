/**
 * IPAM filters on inet/cidr columns (reference 8.2): containment through PostgreSQL's network
 * operators, mask length, family, and the host-part comparisons NetBox uses for addresses. A value
 * that is no network is a 400 naming the parameter (NetBox matches nothing, reference 8.3; issue 9
 * asks for the 400).
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { type Cond, INTEGER_LOOKUPS, likeEscape, likeFor } from '../../core/query/lookups.js';
import { searchTerm, textSearchConditions } from '../../core/query/filter-conditions.js';
import { parseFilterValue, parseNetworks } from '../../core/query/parse-value.js';
import { format, type IpValue, networkOf, parseIp } from '../../core/net/ip.js';

type Ref = (alias: string) => Cond;
export const colOf = (column: string): Ref => (alias) => sql.ref(`${alias}.${column}`);
/** the address of an inet column without its mask, comparable whatever the stored mask */
export const hostOf = (column: string): Ref => (alias) => sql`host(${sql.ref(`${alias}.${column}`)})::inet`;

/** OR of one condition per value. */
function anyOf(values: IpValue[], one: (v: IpValue) => Cond): Cond {
  return sql`(${sql.join(values.map(one), sql` or `)})`;
}

/** A containment filter: `column <op> value` for each network given. */
export function netFilter(column: Ref, op: '<<' | '<<=' | '>>=' | '='): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias, param }) {
      return anyOf(parseNetworks(param, values), (v) => sql`${column(alias)} ${sql.raw(op)} ${format(v)}::cidr`);
    },
  };
}

/**
 * `address`-style filter (NetBox's net_in): a value with a mask matches that exact address and
 * mask, a value without one matches the host whatever its mask.
 */
export function addressFilter(column: string): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias, param }) {
      const c = sql.ref(`${alias}.${column}`);
      const conds = values.map((v) => {
        const ip = parseFilterValue(param, 'network', v);
        return v.includes('/') ? sql`${c} = ${format(ip)}::inet` : sql`host(${c}) = host(${format(ip)}::inet)`;
      });
      return sql`(${sql.join(conds, sql` or `)})`;
    },
  };
}

/** A numeric filter over an SQL expression (mask length, family, child counts), with lookups. */
export function numericFilter(expr: Ref, param: string, lookups: string[] = ['gte', 'lte']): CustomFilter {
  return {
    type: 'integer',
    lookups,
    async build(values, lookup, { alias }) {
      const name = lookup === 'exact' ? param : `${param}__${lookup}`;
      const nums = values.map((v) => parseFilterValue(name, 'integer', v));
      return INTEGER_LOOKUPS[lookup]!(expr(alias), nums, false);
    },
  };
}

export const familyFilter = (column: string) => numericFilter((a) => sql`family(${sql.ref(`${a}.${column}`)})`, 'family', []);
export const maskLengthFilter = (column: string) => numericFilter((a) => sql`masklen(${sql.ref(`${a}.${column}`)})`, 'mask_length');

/** Free-text search that also matches networks containing the text when it is an address. */
export function networkSearch(column: string, textColumns: string[], opts: { startsWith?: boolean } = {}): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias }) {
      const q = searchTerm(values);
      if (!q) return null;
      const esc = likeEscape(q);
      const c = sql.ref(`${alias}.${column}`);
      const parts: Cond[] = textSearchConditions(alias, textColumns, q);
      if (opts.startsWith) parts.push(sql`text(${c}) ${likeFor(q)} ${`${esc}%`}`);
      else {
        parts.push(sql`text(${c}) ${likeFor(q)} ${`%${esc}%`}`);
        const ip = parseIp(q);
        if (ip) parts.push(sql`${c} >>= ${format(networkOf(ip))}::cidr`);
      }
      return sql`(${sql.join(parts, sql` or `)})`;
    },
  };
}
