/**
 * One page of the addresses and IP ranges inside a span (a prefix's, an IP range's) in address
 * order: the items of the page and the one before it, and how far the ranges that start before
 * the page reach, which is all the available rows between them need (available-rows.ts). Two
 * ordered scans of the host index are merged by PostgreSQL and cut at the page's end, so the
 * statement reads up to the page, not every address of a /8.
 * Which addresses: NetBox 3.4 Prefix.get_child_ips (the prefix's VRF, any VRF under a global
 * container), IPRange.get_child_ips (the range's VRF); ranges: Prefix.get_child_ranges (both ends
 * inside, the prefix's VRF). The user's view constraints narrow both.
 */
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../../core/auth/permissions.js';
import { countObjects } from '../../core/crud/read.js';
import type { RequestContext } from '../../core/context.js';
import { formatAddress, parseIp } from '../../core/net/ip.js';
import type { Params } from '../../core/query/filters.js';
import type { Cond } from '../../core/query/lookups.js';

export interface AddressSpan {
  family: 4 | 6;
  /** the span's first and last addresses */
  first: bigint;
  last: bigint;
  /** the VRF of its addresses and ranges, or undefined for any VRF (addresses only) */
  vrfId?: number | null;
  /** the VRF of its ranges (a global container's ranges are its own VRF's); undefined: no ranges */
  rangeVrfId?: number | null;
  /** a prefix's network (`10.0.0.0/8`): its counts are the lists' */
  cidr?: string;
}

export interface SpanItem {
  kind: 'address' | 'range';
  id: number;
  start: bigint;
  end: bigint;
}

export interface AddressWindow {
  items: SpanItem[];
  coveredBefore: bigint | null;
}

const vrfIs = (alias: string, vrfId: number | null | undefined) =>
  vrfId === undefined
    ? sql``
    : vrfId === null
      ? sql`and ${sql.ref(`${alias}.vrf_id`)} is null`
      : sql`and ${sql.ref(`${alias}.vrf_id`)} = ${vrfId}::bigint`;

interface Conds {
  addresses: Cond;
  ranges: Cond | null;
}

async function conditions(rc: RequestContext, span: AddressSpan): Promise<Conds | null> {
  const { registry } = rc.app;
  const ipModel = registry.get('ipam.ipaddress');
  const rangeModel = registry.get('ipam.iprange');
  if (!(await hasPermission(rc, ipModel, 'view'))) return null;
  const first = formatAddress(span.family, span.first);
  const last = formatAddress(span.family, span.last);
  const ipScope = await requirePermission(rc, ipModel, 'view');
  // the host's range: what the host index answers (apps/ipam/allocators.ts does the same)
  const addresses = sql`host(t.address)::inet between ${first}::inet and ${last}::inet ${vrfIs('t', span.vrfId)}
    ${ipScope ? sql`and ${ipScope}` : sql``}`;
  let ranges: Cond | null = null;
  if (span.rangeVrfId !== undefined && (await hasPermission(rc, rangeModel, 'view'))) {
    const rangeScope = await requirePermission(rc, rangeModel, 'view');
    ranges = sql`host(t.start_address)::inet between ${first}::inet and ${last}::inet
      and host(t.end_address)::inet between ${first}::inet and ${last}::inet ${vrfIs('t', span.rangeVrfId)}
      ${rangeScope ? sql`and ${rangeScope}` : sql``}`;
  }
  return { addresses, ranges };
}

const vrfParam = (q: Params, vrfId: number | null | undefined) => {
  if (vrfId !== undefined) q.set('vrf_id', [vrfId === null ? 'null' : String(vrfId)]);
  return q;
};

/**
 * How many addresses (and ranges) the span lists, or null when the user may see no addresses. A
 * prefix's are counted as the lists count them (their `parent` and `vrf_id` filters, so their
 * count cache, kept until a write, serves the tab's badge and its pager alike).
 */
export async function countSpan(rc: RequestContext, span: AddressSpan): Promise<number | null> {
  const { registry } = rc.app;
  if (span.cidr) {
    const ips = await countObjects(
      rc,
      registry.get('ipam.ipaddress'),
      vrfParam(new Map([['parent', [span.cidr]]]), span.vrfId),
    );
    if (ips === null) return null;
    if (span.rangeVrfId === undefined) return ips;
    const ranges = await countObjects(
      rc,
      registry.get('ipam.iprange'),
      vrfParam(new Map([['parent', [span.cidr]]]), span.rangeVrfId),
    );
    return ips + (ranges ?? 0);
  }
  const c = await conditions(rc, span);
  if (!c) return null;
  const res = await sql<{ n: number }>`select count(*)::int as n from ipam_ipaddress t where ${c.addresses}`.execute(
    rc.q,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * The items at `offset`, `limit` of them (ranges before the addresses that share their start), as
 * two ordered index scans merged, each cut at the page's end; then, past the first page, how far
 * the ranges that start before the page reach (one more small statement).
 */
export async function addressWindow(
  rc: RequestContext,
  span: AddressSpan,
  offset: number,
  limit: number,
): Promise<AddressWindow | null> {
  const c = await conditions(rc, span);
  if (!c) return null;
  // the item before the page too: where the page's first gap starts
  const from = Math.max(0, offset - 1);
  const take = limit + (offset > 0 ? 1 : 0);
  const upTo = from + take;
  const ranges = c.ranges
    ? sql`union all (select 0 as kind, t.id, host(t.start_address)::inet as s, host(t.end_address)::inet as e
        from ipam_iprange t where ${c.ranges} order by host(t.start_address)::inet, t.id limit ${upTo}::bigint)`
    : sql``;
  // the host is computed once per address read (an address's end is its start) and written out
  // as text only for the page's rows
  const res = await sql<{ kind: number; id: string; s: string; e: string }>`select y.kind, y.id, host(y.s) as s,
      host(coalesce(y.e, y.s)) as e
    from (select x.kind, x.id, x.s, x.e from ((select 1 as kind, t.id, host(t.address)::inet as s, null::inet as e
        from ipam_ipaddress t where ${c.addresses} order by host(t.address)::inet, t.id limit ${upTo}::bigint)
      ${ranges}) x
      order by x.s, x.kind, x.id offset ${from}::bigint limit ${take}::bigint) y
    order by y.s, y.kind, y.id`.execute(rc.q);
  const items: SpanItem[] = res.rows.map((r) => ({
    kind: Number(r.kind) === 0 ? 'range' : 'address',
    id: Number(r.id),
    start: parseIp(r.s)!.value,
    end: parseIp(r.e)!.value,
  }));
  let coveredBefore: bigint | null = null;
  const prev = offset > 0 ? items.shift() : undefined;
  if (prev) {
    coveredBefore = prev.end;
    if (c.ranges) {
      const reach = await sql<{ e: string | null }>`select host(max(host(t.end_address)::inet)) as e
        from ipam_iprange t where ${c.ranges}
          and host(t.start_address)::inet <= ${formatAddress(span.family, prev.start)}::inet`.execute(rc.q);
      const e = reach.rows[0]?.e;
      if (e && parseIp(e)!.value > coveredBefore) coveredBefore = parseIp(e)!.value;
    }
  }
  return { items, coveredBefore };
}
