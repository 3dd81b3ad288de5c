/**
 * IPAM filters on inet/cidr columns (reference 8.2): containment through PostgreSQL's network
 * operators, mask length, family, and the host-part comparisons NetBox uses for addresses. A value
 * that is no network is a 400 naming the parameter (NetBox matches nothing, reference 8.3; this
 * service refuses it: docs/api-differences.md, "Strict input").
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { type Cond, likeEscape, likeFor } from '../../core/query/lookups.js';
import { numericFilter } from '../../core/query/filter-blocks.js';
import { searchTerm, textSearchConditions } from '../../core/query/filter-conditions.js';
import { parseFilterValue, parseNetworks } from '../../core/query/parse-value.js';
import { format, type IpValue, networkOf, parseIp } from '../../core/net/ip.js';
import { ipv4TextPrefixNetworks } from '../../core/net/text-prefix.js';
import { anyOfAlternatives } from '../../core/query/alternatives.js';

type Ref = (alias: string) => Cond;
export const colOf =
  (column: string): Ref =>
  (alias) =>
    sql.ref(`${alias}.${column}`);
/** the address of an inet column without its mask, comparable whatever the stored mask */
export const hostOf =
  (column: string): Ref =>
  (alias) =>
    sql`host(${sql.ref(`${alias}.${column}`)})::inet`;

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
 * NetBox's `parent` of addresses (net_host_contained): the address's host within each network,
 * whatever its own mask. The host test alone reads the table in address order until a page of
 * matches turns up, past every address before the network: 2,500 rows for 10.1.0.0/16 among
 * 20,000, 17,500 for 10.7.0.0/16, half a million for 10.200.0.0/16 among a million. So it also
 * bounds the address itself, for an index range: in inet order (family, the shorter mask's bits,
 * mask length, all bits) an address with the network's mask or a longer one lies between the
 * network and its last host with the longest mask; one with a shorter mask m lies below, between
 * the network's first and last host both with mask m, so the lowest of those (one index probe per
 * shorter mask) or else the network itself is the lower bound. Exact either way: the host test stays.
 */
export function hostWithinFilter(table: string, column: string): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias, param }) {
      const networks = parseNetworks(param, values).map(format);
      // a page reads each network's two ranges apart (query/alternatives.ts): the lower bound of the
      // one condition is a sub-query's answer, unknown when PostgreSQL plans, so it read every
      // address of the network and sorted them for a page of 50 (2,500 rows for 10.1.0.0/16)
      return anyOfAlternatives(
        networks.map((n) => hostWithin(table, column, alias, n)),
        networks.flatMap((n) => hostWithinRanges(table, column, alias, n)),
      );
    },
  };
}

/** The address's host within the network `cidr`, as an index range on the address (hostWithinFilter). */
function hostWithin(table: string, column: string, alias: string, cidr: string): Cond {
  const c = sql.ref(`${alias}.${column}`);
  const net = sql`${cidr}::cidr`;
  return sql`(host(${c})::inet <<= ${net} and ${c} <= ${lastHost(net)} and ${c} >= ${lowestWithin(table, column, net)})`;
}

/**
 * hostWithin as two ranges in address order. The addresses with the network's mask or a longer one
 * are exactly those between the network and its last host (an address with a shorter mask sorts
 * below the network, or above its last host when its own bits differ): bounds PostgreSQL knows when
 * it plans, so it reads them in order and stops at a page. Those with a shorter mask lie below the
 * network, from the lowest such address up; among them the host test picks those within. That test
 * is written as the function, not the operator, so no index serves it: offered the host index,
 * PostgreSQL read every host of the network through it (2,500 rows of the scale set's million for
 * 10.1.0.0/16) to find the few, usually none, below the network.
 */
function hostWithinRanges(table: string, column: string, alias: string, cidr: string): Cond[] {
  const c = sql.ref(`${alias}.${column}`);
  const net = sql`${cidr}::cidr`;
  return [
    sql`(${c} >= ${net}::inet and ${c} <= ${lastHost(net)})`,
    sql`(${c} >= ${lowestWithin(table, column, net)} and ${c} < ${net}::inet and network_subeq(host(${c})::inet, ${net}))`,
  ];
}

/** the network's last host with the family's longest mask: the last address whose host is within it */
const lastHost = (net: Cond) => sql`set_masklen(broadcast(${net}), case family(${net}) when 4 then 32 else 128 end)`;

/** the lowest address whose host is within the network: one with a shorter mask (an index probe per mask), else the network */
function lowestWithin(table: string, column: string, net: Cond): Cond {
  const shorterMasks = sql`(select min(s.a) from generate_series(0, masklen(${net}) - 1) m cross join lateral
    (select min(i.${sql.ref(column)}) as a from ${sql.table(table)} i where i.${sql.ref(column)} between set_masklen(network(${net})::inet, m) and set_masklen(broadcast(${net}), m)) s)`;
  return sql`coalesce(${shorterMasks}, ${net}::inet)`;
}

/**
 * The address search's text test within one network its start lies in (text-prefix.ts), as two
 * ranges in address order: the addresses with the network's mask or a longer one, between the
 * network and its last host - constant bounds PostgreSQL can estimate, so it reads them in order
 * and stops at a page - and those with a shorter mask, below the network (hostWithin). The text
 * test compares the text's first characters, which no index serves: as `like` (or `starts_with`,
 * which PostgreSQL also serves from a text_pattern_ops index) it let PostgreSQL read every match
 * through the text index and sort them instead (4 ms for `10.1.` at scale, 2,500 rows).
 */
function startsWithin(table: string, column: string, alias: string, cidr: string, start: string): Cond[] {
  const c = sql.ref(`${alias}.${column}`);
  const net = sql`${cidr}::cidr`;
  const starts = sql`left(text(${c}), ${start.length}) = ${start}`;
  return [
    sql`(${c} >= ${net}::inet and ${c} <= ${lastHost(net)} and ${starts})`,
    sql`(${c} >= ${lowestWithin(table, column, net)} and ${c} < ${net}::inet and ${starts})`,
  ];
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
        // hosts compared as inet (hostOf): the host index's expression (migration 0151)
        return v.includes('/')
          ? sql`${c} = ${format(ip)}::inet`
          : sql`${hostOf(column)(alias)} = host(${format(ip)}::inet)::inet`;
      });
      return sql`(${sql.join(conds, sql` or `)})`;
    },
  };
}

export const familyFilter = (column: string) =>
  numericFilter((a) => sql`family(${sql.ref(`${a}.${column}`)})`, 'family', [], [4, 6]);
export const maskLengthFilter = (column: string) =>
  numericFilter((a) => sql`masklen(${sql.ref(`${a}.${column}`)})`, 'mask_length', ['gte', 'lte'], { min: 0, max: 128 });

/** Free-text search that also matches networks containing the text when it is an address. */
export function networkSearch(
  column: string,
  textColumns: string[],
  opts: { startsWith?: boolean } = {},
): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias, model }) {
      const q = searchTerm(values);
      if (!q) return null;
      const esc = likeEscape(q);
      const c = sql.ref(`${alias}.${column}`);
      const texts = textSearchConditions(alias, textColumns, q);
      const parts: Cond[] = [...texts];
      if (opts.startsWith) {
        parts.push(sql`text(${c}) ${likeFor(q)} ${`${esc}%`}`);
        // a dotted IPv4 start lies in a few networks: each an index range of its own, read apart
        // from the text columns' (trigram) matches for a page (query/alternatives.ts); under three
        // characters a trigram index cannot serve the text columns, and the OR is read as it is
        const networks = q.length >= 3 ? ipv4TextPrefixNetworks(q) : null;
        if (networks)
          return anyOfAlternatives(parts, [
            ...texts,
            ...networks.flatMap((n) => startsWithin(model.table, column, alias, n, q)),
          ]);
      } else {
        parts.push(sql`text(${c}) ${likeFor(q)} ${`%${esc}%`}`);
        const ip = parseIp(q);
        if (ip) parts.push(sql`${c} >>= ${format(networkOf(ip))}::cidr`);
      }
      return sql`(${sql.join(parts, sql` or `)})`;
    },
  };
}
