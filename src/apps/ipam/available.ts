/**
 * Address-space arithmetic for the allocation endpoints (reference 3.8), on BigInt intervals:
 * what is left of a parent once its used addresses and blocks are taken out, as single addresses
 * or as the largest aligned CIDR blocks (netaddr's IPSet.iter_cidrs order: by address).
 */
import { maxLength } from '../../core/net/ip.js';

/** an inclusive run of addresses */
export interface Interval {
  start: bigint;
  end: bigint;
}

/** Sorts and merges overlapping or adjacent intervals. */
export function mergeIntervals(list: Interval[]): Interval[] {
  const sorted = [...list].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: Interval[] = [];
  for (const iv of sorted) {
    const last = out[out.length - 1];
    if (last && iv.start <= last.end + 1n) {
      if (iv.end > last.end) last.end = iv.end;
    } else out.push({ ...iv });
  }
  return out;
}

/** The free runs of [first, last] once `used` (merged) is taken out. */
export function freeIntervals(first: bigint, last: bigint, used: Interval[]): Interval[] {
  const out: Interval[] = [];
  let cursor = first;
  for (const u of used) {
    if (u.end < cursor) continue;
    if (u.start > last) break;
    if (u.start > cursor) out.push({ start: cursor, end: u.start - 1n });
    cursor = u.end + 1n;
    if (cursor > last) return out;
  }
  if (cursor <= last) out.push({ start: cursor, end: last });
  return out;
}

/** Up to `limit` free addresses, lowest first. */
export function firstFree(free: Interval[], limit: number): bigint[] {
  const out: bigint[] = [];
  for (const iv of free) {
    for (let a = iv.start; a <= iv.end && out.length < limit; a++) out.push(a);
    if (out.length >= limit) break;
  }
  return out;
}

export const countFree = (free: Interval[]) => free.reduce((n, iv) => n + (iv.end - iv.start + 1n), 0n);

/** The free intervals as aligned CIDR blocks: [network value, prefix length]. */
export function cidrBlocks(free: Interval[], family: 4 | 6): Array<{ value: bigint; prefixLength: number }> {
  const bits = maxLength(family);
  const out: Array<{ value: bigint; prefixLength: number }> = [];
  for (const iv of free) {
    let s = iv.start;
    while (s <= iv.end) {
      // the largest block starting at s that is aligned on s and ends inside the run
      let size = 0;
      while (size < bits && (s & ((1n << BigInt(size + 1)) - 1n)) === 0n && s + (1n << BigInt(size + 1)) - 1n <= iv.end)
        size++;
      out.push({ value: s, prefixLength: bits - size });
      s += 1n << BigInt(size);
    }
  }
  return out;
}

/** Takes one interval out of a list of free intervals. */
export function subtract(free: Interval[], x: Interval): Interval[] {
  return free.flatMap((iv) => {
    if (x.end < iv.start || x.start > iv.end) return [iv];
    const out: Interval[] = [];
    if (x.start > iv.start) out.push({ start: iv.start, end: x.start - 1n });
    if (x.end < iv.end) out.push({ start: x.end + 1n, end: iv.end });
    return out;
  });
}
