/**
 * One page of the addresses and IP ranges inside a span (a prefix's, an IP range's) in address
 * order, read in one statement: the items of the page and the one before it, their number, and
 * how far the ranges that start before the page reach, which is all the available rows between
 * them need (available-rows.ts). The two ordered index scans are merged by PostgreSQL, so the
 * statement reads the page's window, not every address of a /8.
 * Which addresses: NetBox 3.4 Prefix.get_child_ips (the prefix's VRF, any VRF under a global
 * container), IPRange.get_child_ips (the range's VRF); ranges: Prefix.get_child_ranges (both ends
 * inside, the prefix's VRF). The user's view constraints narrow both.
 */
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import { formatAddress, parseIp } from '../../core/net/ip.js';
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
}

export interface SpanItem {
  kind: 'address' | 'range';
  id: number;
  start: bigint;
  end: bigint;
}

export interface AddressWindow {
  total: number;
  items: SpanItem[];
  coveredBefore: bigint | null;
}

const vrfIs = (alias: string, vrfId: number | null | undefined) =>
  vrfId === undefined ? sql`` : sql`and ${sql.ref(`${alias}.vrf_id`)} is not distinct from ${vrfId}::bigint`;

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

/** how many addresses (and ranges) the span lists, or null when the user may see no addresses */
export async function countSpan(rc: RequestContext, span: AddressSpan): Promise<number | null> {
  const c = await conditions(rc, span);
  if (!c) return null;
  const res = await sql<{ n: number }>`select (select count(*) from ipam_ipaddress t where ${c.addresses})
    + ${c.ranges ? sql`(select count(*) from ipam_iprange t where ${c.ranges})` : sql`0`} as n`.execute(rc.q);
  return Number(res.rows[0]?.n ?? 0);
}

/** the items at `offset`, `limit` of them (ranges before the addresses that share their start) */
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
  const ranges = c.ranges
    ? sql`select 0 as kind, t.id, host(t.start_address)::inet as s, host(t.end_address)::inet as e
        from ipam_iprange t where ${c.ranges}`
    : sql`select 0 as kind, 0::bigint as id, null::inet as s, null::inet as e where false`;
  const res = await sql<{
    total: string;
    reach: string | null;
    kind: number | null;
    id: string | null;
    s: string | null;
    e: string | null;
  }>`with a as (select 1 as kind, t.id, host(t.address)::inet as s, host(t.address)::inet as e
        from ipam_ipaddress t where ${c.addresses}),
      r as (${ranges}),
      w as ((select * from a order by s, id) union all (select * from r order by s, id)
        order by s, kind, id offset ${from}::bigint limit ${take}::bigint)
    select (select count(*) from a) + (select count(*) from r) as total,
      host((select max(r.e) from r where r.s <= (select min(s) from w))) as reach,
      w.kind, w.id, host(w.s) as s, host(w.e) as e
    from (select 1) one left join w on true
    order by w.s, w.kind, w.id`.execute(rc.q);
  const head = res.rows[0];
  const rows: SpanItem[] = res.rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      kind: r.kind === 0 ? 'range' : 'address',
      id: Number(r.id),
      start: parseIp(r.s!)!.value,
      end: parseIp(r.e!)!.value,
    }));
  let coveredBefore: bigint | null = head?.reach ? parseIp(head.reach)!.value : null;
  if (offset > 0) {
    const prev = rows.shift();
    if (prev && (coveredBefore === null || prev.end > coveredBefore)) coveredBefore = prev.end;
  } else coveredBefore = null;
  return { total: Number(head?.total ?? 0), items: rows, coveredBefore };
}
