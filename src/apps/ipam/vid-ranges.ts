/**
 * A VLAN group's VID ranges (NetBox 4.0, #9627): a list of inclusive `[lower, upper]` pairs, as
 * NetBox's IntegerRangeSerializer writes and shows its int4range[] column. The 3.4 dialect sees
 * the outer bounds as `min_vid` / `max_vid`, and writing those sets one range.
 */
import { sql } from 'kysely';
import { typeName } from '../../core/crud/parse-field.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { parseFilterValue } from '../../core/query/parse-value.js';

export type VidRange = [number, number];

const VID_MIN = 1;
const VID_MAX = 4094;

/** NetBox 4.4's messages: IntegerRangeSerializer's for the shape, VLANGroup.clean's for the values */
function vidRangesError(v: unknown): string | undefined {
  if (!Array.isArray(v)) return `Expected a list of items but got type "${typeName(v)}".`;
  // Django ArrayField, blank=False
  if (v.length === 0) return 'This field cannot be blank.';
  for (const r of v) {
    if (!Array.isArray(r) || r.length !== 2) return 'Ranges must be specified in the form (lower, upper).';
    if (!r.every((n) => Number.isSafeInteger(n))) return 'Range boundaries must be defined as integers.';
    const [lower, upper] = r as VidRange;
    if (lower < VID_MIN) return `Starting VLAN ID in range (${lower}) cannot be less than ${VID_MIN}`;
    if (upper > VID_MAX) return `Ending VLAN ID in range (${upper}) cannot exceed ${VID_MAX}`;
    if (lower > upper)
      return `Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (${lower}-${upper})`;
  }
  const sorted = sortRanges(v as VidRange[]);
  if (sorted.some((r, i) => i > 0 && sorted[i - 1]![1] >= r[0])) return 'Ranges cannot overlap.';
}

const sortRanges = (ranges: VidRange[]) => [...ranges].sort((a, b) => a[0] - b[0]);

export const vidRangesField: FieldDef = {
  kind: 'json',
  default: () => [[VID_MIN, VID_MAX]],
  label: 'VLAN ID ranges',
  validate: vidRangesError,
  shape: { type: 'array', items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } },
  dialect: '4.4',
};

/** the ranges of a stored group (a group stored before migration 0200 has its min/max as one) */
export function rangesOf(group: Row): VidRange[] {
  const ranges = group.vid_ranges as VidRange[] | undefined;
  return ranges?.length ? ranges : [[Number(group.min_vid), Number(group.max_vid)]];
}

/** "1-99,200,300-400", as NetBox's ranges_to_string words a group's ranges in its messages */
export const rangesText = (ranges: VidRange[]) => ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');

export const inRanges = (ranges: VidRange[], vid: number) => ranges.some(([a, b]) => vid >= a && vid <= b);

/**
 * Keeps the two forms of a write in step (the prepare hook): written ranges are stored sorted and
 * set min_vid / max_vid to their outer bounds; a written min_vid or max_vid (3.4) that moves a
 * bound sets one range.
 */
export function syncVidRanges(data: Row, before: Row | null, sent: Set<string>): void {
  if (sent.has('vid_ranges')) {
    const ranges = sortRanges(data.vid_ranges as VidRange[]);
    data.vid_ranges = ranges;
    data.min_vid = ranges[0]![0];
    data.max_vid = Math.max(...ranges.map((r) => r[1]));
  } else if (sent.has('min_vid') || sent.has('max_vid')) {
    const lower = Number(data.min_vid ?? before?.min_vid ?? VID_MIN);
    const upper = Number(data.max_vid ?? before?.max_vid ?? VID_MAX);
    // the stored bounds written back (a 3.4 PUT of what it read) keep the ranges they bound
    if (before && lower === Number(before.min_vid) && upper === Number(before.max_vid)) return;
    data.vid_ranges = [[lower, upper]];
  }
}

/** NetBox 4.0 `contains_vid`: groups one of whose ranges holds the VID */
export const containsVidFilter: CustomFilter = {
  type: 'integer',
  async build(values, _lookup, { param, alias }) {
    const vids = values.map((v) => parseFilterValue(param, 'integer', v));
    return sql`exists (select 1 from jsonb_array_elements(${sql.ref(`${alias}.vid_ranges`)}) r, unnest(${vids}::int[]) v
      where v between (r->>0)::int and (r->>1)::int)`;
  },
};

/**
 * NetBox 4.0 VLAN group `utilization`: VLANs in the group per VID its ranges hold, in percent
 * rounded to two places, as the text its serializer gives ("0.05")
 */
export function utilizationOf(ranges: unknown, vlanCount: unknown): string {
  const total = ((ranges as VidRange[] | null) ?? []).reduce((n, [a, b]) => n + b - a + 1, 0);
  if (!total) return '0.00';
  return (Math.round(((Number(vlanCount) || 0) * 100 * 100) / total) / 100).toFixed(2);
}
