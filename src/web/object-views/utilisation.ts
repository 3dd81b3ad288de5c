/**
 * Utilisation as NetBox 3.4 computes it, for any number of objects in one statement:
 * - a prefix (Prefix.get_utilization): 100 when marked utilised; a container, the share of it its
 *   child prefixes of the same VRF cover (nested ones counted once); any other, its addresses of
 *   its VRF and the IP ranges inside it (an address inside a range counted once) over its size, less
 *   the network and broadcast addresses of an IPv4 non-pool prefix shorter than /31;
 * - an aggregate (Aggregate.get_utilization): the share its prefixes of any VRF cover;
 * - an IP range (IPRange.get_utilization): its VRF's addresses inside it over its size.
 * The covered sizes are summed in SQL over the children in address order, where a child counts
 * only when it starts past everything before it (a window maximum), so nesting costs nothing;
 * the addresses compared are full-length inets (set_masklen), never text.
 * Not permission-scoped, as NetBox's is not: the figure is the space's, not the viewer's.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { type IpValue, networkOf, parseIp, size } from '../../core/net/ip.js';

/** the size the covering prefixes `c` (a subquery's rows, alias `c`) hold, counted once */
const coveredSize = (children: ReturnType<typeof sql>) => sql`(select coalesce(sum(case when x.cov is null
      or x.cov < set_masklen(x.prefix::inet, x.bits) then 2::numeric ^ (x.bits - masklen(x.prefix)) else 0 end), 0)
    from (select c.prefix, b.bits, max(set_masklen(broadcast(c.prefix), b.bits)) over (order by c.prefix, c.id
        rows between unbounded preceding and 1 preceding) as cov
      from ipam_prefix c, lateral (select case when family(c.prefix) = 4 then 32 else 128 end as bits) b
      where ${children}) x)`;

/**
 * a prefix row `p`'s addresses (not in its ranges) and the addresses its ranges hold, counted
 * once; `rr` holds the ranges near the prefixes measured, their ends as full-length inets, read once
 */
const addressesAndRanges = sql`(
    (select count(distinct host(a.address)::inet) from ipam_ipaddress a
      where host(a.address)::inet between set_masklen(network(p.prefix)::inet, case when family(p.prefix) = 4 then 32 else 128 end)
          and set_masklen(broadcast(p.prefix), case when family(p.prefix) = 4 then 32 else 128 end)
        and a.vrf_id is not distinct from p.vrf_id
        and not exists (select 1 from rr where rr.vrf_id is not distinct from p.vrf_id
          and rr.s <<= p.prefix and rr.e <<= p.prefix and host(a.address)::inet between rr.s and rr.e))
    + (select coalesce(sum(case when y.cov is null or y.cov < y.s then (y.e - y.s) + 1
          when y.e > y.cov then y.e - y.cov else 0 end), 0)
      from (select rr.s, rr.e, max(rr.e) over (order by rr.s, rr.id rows between unbounded preceding and 1 preceding) as cov
        from rr where rr.vrf_id is not distinct from p.vrf_id and rr.s <<= p.prefix and rr.e <<= p.prefix) y))`;

const toBig = (text: string | null) => BigInt(String(text ?? '0').split('.')[0]!);

const percentOf = (used: bigint, total: bigint) =>
  total <= 0n ? 0 : Math.min(100, Number((used * 100_000n) / total) / 1000);

/** NetBox's denominator: IPv4 non-pool prefixes shorter than /31 lose their network and broadcast */
function prefixDenominator(net: IpValue, isPool: boolean): bigint {
  const n = size(net);
  return net.family === 4 && net.prefixLength < 31 && !isPool ? n - 2n : n;
}

/** utilisation percentages of prefixes by id */
export async function prefixUtilisation(rc: RequestContext, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const res = await sql<{
    id: string;
    prefix: string;
    is_pool: boolean;
    marked: boolean;
    used: string | null;
  }>`with m as (select * from ipam_prefix where id = any(${ids}::bigint[])),
      span as (select min(set_masklen(network(prefix)::inet, case when family(prefix) = 4 then 32 else 128 end)) as lo,
        max(set_masklen(broadcast(prefix), case when family(prefix) = 4 then 32 else 128 end)) as hi from m),
      rr as materialized (select r.id, r.vrf_id, host(r.start_address)::inet as s, host(r.end_address)::inet as e
        from ipam_iprange r, span where host(r.start_address)::inet between span.lo and span.hi)
    select p.id, p.prefix::text as prefix, p.is_pool, p.mark_utilized as marked,
      (case when p.mark_utilized then null
        when p.status = 'container' then ${coveredSize(sql`c.prefix << p.prefix and c.vrf_id is not distinct from p.vrf_id`)}
        else ${addressesAndRanges} end)::text as used
    from m p`.execute(rc.q);
  const out = new Map<number, number>();
  for (const r of res.rows) {
    const net = networkOf(parseIp(r.prefix)!);
    out.set(Number(r.id), r.marked ? 100 : percentOf(toBig(r.used), prefixDenominator(net, r.is_pool)));
  }
  return out;
}

export async function aggregateUtilisation(rc: RequestContext, id: number): Promise<number> {
  const res = await sql<{ prefix: string; used: string | null }>`select p.prefix::text as prefix,
      ${coveredSize(sql`c.prefix <<= p.prefix`)}::text as used from ipam_aggregate p where p.id = ${id}`.execute(rc.q);
  const r = res.rows[0];
  if (!r) return 0;
  return percentOf(toBig(r.used), size(parseIp(r.prefix)!));
}

export async function rangeUtilisation(rc: RequestContext, id: number): Promise<number> {
  const res = await sql<{ s: string; e: string; used: string }>`select host(p.start_address) as s,
      host(p.end_address) as e, (select count(*) from ipam_ipaddress a
        where a.vrf_id is not distinct from p.vrf_id
          and host(a.address)::inet between host(p.start_address)::inet and host(p.end_address)::inet)::text as used
    from ipam_iprange p where p.id = ${id}`.execute(rc.q);
  const r = res.rows[0];
  if (!r) return 0;
  const total = parseIp(r.e)!.value - parseIp(r.s)!.value + 1n;
  return percentOf(toBig(r.used), total);
}
