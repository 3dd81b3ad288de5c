/**
 * What each allocation endpoint can hand out (reference 3.8), read from the database inside the
 * caller's transaction (after the advisory lock, so the answer cannot go stale before the write).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { broadcastOf, formatAddress, type IpValue, networkOf, parseIp } from '../../core/net/ip.js';
import { type Interval, freeIntervals, mergeIntervals } from './available.js';
import { rangeName } from './ip-range.model.js';
import type { Row } from '../../core/model/types.js';
import { rangesOf } from './vid-ranges.js';

export interface AddressSpace {
  family: 4 | 6;
  /** mask of the addresses handed out */
  prefixLength: number;
  vrfId: number | null;
  free: Interval[];
  /** the parent as the 409 message names it */
  label: string;
}

const hostInterval = (text: string): Interval => {
  const v = parseIp(text)!.value;
  return { start: v, end: v };
};

async function usedHosts(rc: RequestContext, where: ReturnType<typeof sql>): Promise<Interval[]> {
  const res = await sql<{ h: string }>`select distinct host(address) as h from ipam_ipaddress where ${where}`.execute(
    rc.q,
  );
  return res.rows.map((r) => hostInterval(r.h));
}

const sameVrf = (column: string, vrfId: unknown) =>
  sql`${sql.ref(column)} is not distinct from ${vrfId ?? null}::bigint`;

/**
 * NetBox 3.4 Prefix.get_available_ips: the prefix minus its addresses (any VRF for a global
 * container), minus the ranges inside it, minus the network and broadcast addresses of an IPv4
 * prefix shorter than /31 (or the subnet-router anycast address of an IPv6 one shorter than
 * /127) unless the prefix is a pool.
 */
export async function prefixAddressSpace(rc: RequestContext, prefix: Row): Promise<AddressSpace> {
  const net = networkOf(parseIp(String(prefix.prefix))!);
  const cidr = String(prefix.prefix);
  const base = {
    family: net.family,
    prefixLength: net.prefixLength,
    vrfId: (prefix.vrf_id as number | null) ?? null,
    label: cidr,
  };
  if (prefix.mark_utilized) return { ...base, free: [] };
  const anyVrf = prefix.vrf_id == null && prefix.status === 'container';
  // the network's first to last host: a range of the host index (migration 0151), whether or not
  // the plan sees the network as a constant
  const used = await usedHosts(
    rc,
    sql`host(address)::inet between host(network(${cidr}::cidr))::inet and host(broadcast(${cidr}::cidr))::inet
    ${anyVrf ? sql`` : sql`and ${sameVrf('vrf_id', prefix.vrf_id)}`}`,
  );
  const ranges = await sql<{
    s: string;
    e: string;
  }>`select host(start_address) as s, host(end_address) as e from ipam_iprange
    where ${sameVrf('vrf_id', prefix.vrf_id)} and host(start_address)::inet <<= ${cidr}::cidr
      and host(end_address)::inet <<= ${cidr}::cidr`.execute(rc.q);
  for (const r of ranges.rows) used.push({ start: parseIp(r.s)!.value, end: parseIp(r.e)!.value });
  const first = net.value;
  const last = broadcastOf(net);
  const whole = prefix.is_pool || (net.family === 4 ? net.prefixLength >= 31 : net.prefixLength >= 127);
  if (!whole) {
    used.push({ start: first, end: first });
    if (net.family === 4) used.push({ start: last, end: last });
  }
  return { ...base, free: freeIntervals(first, last, mergeIntervals(used)) };
}

/** NetBox 3.4 IPRange.get_available_ips: the range minus the addresses of its VRF inside it */
export async function rangeAddressSpace(rc: RequestContext, range: Row): Promise<AddressSpace> {
  const start = parseIp(String(range.start_address))!;
  const end = parseIp(String(range.end_address))!;
  const used = await usedHosts(
    rc,
    sql`${sameVrf('vrf_id', range.vrf_id)}
    and host(address)::inet >= host(${String(range.start_address)}::inet)::inet
    and host(address)::inet <= host(${String(range.end_address)}::inet)::inet`,
  );
  return {
    family: start.family,
    prefixLength: start.prefixLength,
    vrfId: (range.vrf_id as number | null) ?? null,
    free: freeIntervals(start.value, end.value, mergeIntervals(used)),
    label: rangeName(String(range.start_address), String(range.end_address)),
  };
}

/**
 * NetBox 3.4 Prefix.get_available_prefixes: the prefix minus its child prefixes (any VRF for a
 * global container, else its own VRF).
 */
export async function prefixFreeSpace(rc: RequestContext, prefix: Row): Promise<{ net: IpValue; free: Interval[] }> {
  const net = networkOf(parseIp(String(prefix.prefix))!);
  const anyVrf = prefix.vrf_id == null && prefix.status === 'container';
  const res = await sql<{
    p: string;
  }>`select prefix::text as p from ipam_prefix where prefix << ${String(prefix.prefix)}::cidr
    ${anyVrf ? sql`` : sql`and ${sameVrf('vrf_id', prefix.vrf_id)}`}`.execute(rc.q);
  const used = res.rows.map((r) => {
    const child = parseIp(r.p)!;
    return { start: child.value, end: broadcastOf(child) };
  });
  return { net, free: freeIntervals(net.value, broadcastOf(net), mergeIntervals(used)) };
}

/** NetBox 4.4 VLANGroup.get_available_vids: the group's ranges minus the VIDs in use, ascending */
export async function availableVids(rc: RequestContext, group: Row): Promise<number[]> {
  const res = await sql<{ vid: number }>`select vid from ipam_vlan where group_id = ${group.id}`.execute(rc.q);
  const used = new Set(res.rows.map((r) => Number(r.vid)));
  const out: number[] = [];
  // stored sorted and without overlap (vid-ranges.ts)
  for (const [lower, upper] of rangesOf(group)) for (let v = lower; v <= upper; v++) if (!used.has(v)) out.push(v);
  return out;
}

export const addressText = (space: Pick<AddressSpace, 'family' | 'prefixLength'>, value: bigint) =>
  `${formatAddress(space.family, value)}/${space.prefixLength}`;

/**
 * NetBox 3.7 ASNRange.get_available_asns: the range's numbers no ASN holds yet (ASNs are unique
 * whatever their RIR), lowest first, at most `limit` of them; ranges can span four billion numbers,
 * so the used ones inside the range are read and skipped rather than the range listed.
 */
export async function availableAsns(rc: RequestContext, range: Row, limit: number): Promise<number[]> {
  const [start, end] = [Number(range.start), Number(range.end)];
  const res = await sql<{
    asn: string;
  }>`select asn from ipam_asn where asn between ${start} and ${end} order by asn`.execute(rc.q);
  const used = res.rows.map((r) => Number(r.asn));
  const out: number[] = [];
  let next = start;
  for (const u of [...used, end + 1]) {
    for (; next < u && out.length < limit; next++) out.push(next);
    if (out.length >= limit) break;
    next = u + 1;
  }
  return out;
}
