/**
 * Available rows between a page of ordered items (child prefixes, addresses and ranges, VLANs): the
 * free runs of a parent's span that fall before each item of the page, and after the last item on
 * the last page. The caller reads one ordered window of items and how far the items before the
 * window already reach (`coveredBefore`), so a gap belongs to the page of the item that follows
 * it and paging neither loses nor repeats one. NetBox 3.4 add_requested_prefixes /
 * add_available_ipaddresses / add_available_vlans list the same runs, over the whole list at once.
 */
import type { Interval } from '../../apps/ipam/available.js';

export type Placed<T> = { item: T } | { gap: Interval };

export interface Spanned {
  start: bigint;
  end: bigint;
}

/**
 * The items in order with the free runs of [first, last] between them. `coveredBefore` is the
 * highest point the items before the window reach (null when none); `trailing` adds the run after
 * the last item (the last page). Items may nest or overlap (a /25 inside a /24, an address inside a
 * range): a run starts after the furthest point reached so far.
 */
export function withGaps<T extends Spanned>(
  items: T[],
  first: bigint,
  last: bigint,
  coveredBefore: bigint | null,
  trailing: boolean,
): Array<Placed<T>> {
  const out: Array<Placed<T>> = [];
  let cursor = coveredBefore === null || coveredBefore < first ? first : coveredBefore + 1n;
  for (const item of items) {
    if (item.start > cursor && cursor <= last) {
      const end = item.start - 1n < last ? item.start - 1n : last;
      out.push({ gap: { start: cursor, end } });
    }
    out.push({ item });
    if (item.end + 1n > cursor) cursor = item.end + 1n;
  }
  if (trailing && cursor <= last) out.push({ gap: { start: cursor, end: last } });
  return out;
}

/** A gap split at the edges of allowed spans (a VLAN group's VID ranges), empty pieces dropped. */
export function clipToSpans(gap: Interval, spans: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const s of spans) {
    // BigInts: Math.max and Math.min take numbers only
    let start = gap.start;
    if (s.start > start) start = s.start;
    let end = gap.end;
    if (s.end < end) end = s.end;
    if (start <= end) out.push({ start, end });
  }
  return out;
}
