/**
 * VLAN groups (reference 3.3): named VID ranges (NetBox 4.0 `vid_ranges`, 3.4's `min_vid` and
 * `max_vid` their outer bounds: vid-ranges.ts), optionally scoped to a region, site group, site,
 * location, rack, cluster group or cluster (a generic relation; types whose app is not installed
 * yet are refused as unknown content types).
 */
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';
import { description, fk, name, slug } from '../fields.js';
import { VLAN_GROUP_SCOPE_TYPES } from './choices.js';
import { scopeFilter } from './relation-filters.js';
import { containsVidFilter, syncVidRanges, utilizationOf, vidRangesField } from './vid-ranges.js';

const scopeFilters: Record<string, CustomFilter> = Object.fromEntries(
  VLAN_GROUP_SCOPE_TYPES.map((type) => {
    const param = type.split('.')[1]!;
    return [param, scopeFilter(type, param)];
  }),
);

export const vlanGroup = defineModel({
  name: 'ipam.vlangroup',
  path: 'vlan-groups',
  verboseName: 'VLAN group',
  fields: {
    name: name(100),
    slug: slug(100),
    scope_type: { kind: 'contenttype', nullable: true, types: VLAN_GROUP_SCOPE_TYPES },
    scope_id: { kind: 'integer', nullable: true, min: 0 },
    scope: { kind: 'generic', generic: { type: 'scope_type', id: 'scope_id' } },
    min_vid: { kind: 'integer', default: 1, min: 1, max: 4094, label: 'minimum VLAN ID' },
    max_vid: { kind: 'integer', default: 4094, min: 1, max: 4094, label: 'maximum VLAN ID' },
    vid_ranges: vidRangesField,
    // NetBox 4.3
    tenant: fk('tenancy.tenant', { onDelete: 'protect', dialect: '4.4' }),
    description: description(),
    // NetBox 4.0: the share of the ranges' VIDs in use, in percent to two places, as text
    utilization: { kind: 'computed', readOnly: true, dialect: '4.4', shape: { type: 'string' } },
  },
  counts: { vlan_count: { model: 'ipam.vlan', via: 'group' } },
  uniqueTogether: [
    // NetBox 3.4 unique_together (scope_type, scope_id, name|slug)
    { fields: ['scope_type', 'scope_id', 'name'] },
    { fields: ['scope_type', 'scope_id', 'slug'] },
  ],
  filters: scopeFilters,
  hooks: {
    async validate({ data, sent }) {
      // written ranges are checked as a field (vid-ranges.ts) and set the bounds
      if (!sent.has('vid_ranges') && Number(data.max_vid) < Number(data.min_vid)) {
        return { max_vid: ['Maximum child VID must be greater than or equal to minimum child VID'] };
      }
    },
    prepare({ data, before, sent }) {
      syncVidRanges(data, before, sent);
    },
    represent(_rc, rows, out) {
      rows.forEach((row, i) => {
        if ('utilization' in out[i]!) out[i]!.utilization = utilizationOf(row.vid_ranges, out[i]!.vlan_count);
      });
    },
  },
  ui: {
    columns: ['name', 'scope_type', 'scope', 'vlan_count', 'utilization', 'tenant', 'description'],
    groups: [
      { title: 'VLAN Group', fields: ['name', 'slug', 'description'] },
      { title: 'Child VLANs', fields: ['min_vid', 'max_vid', 'vid_ranges'] },
      { title: 'Scope', fields: ['scope_type', 'scope_id', 'scope'] },
    ],
    related: [{ model: 'ipam.vlan', param: 'group_id' }],
  },
  brief: ['name', 'slug', 'vlan_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  // NetBox 4.0: the ranges replace min_vid / max_vid (still written and filtered in both dialects)
  netbox44: {
    brief: ['name', 'slug', 'description', 'vlan_count'],
    hidden: ['min_vid', 'max_vid'],
    filters: { contains_vid: containsVidFilter, ...tenancyFilters() },
  },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
