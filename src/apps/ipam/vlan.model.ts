/**
 * VLANs (reference 3.3; spec: VLAN table): vid 1-4094 and inside one of the group's ranges, unique per
 * group by vid and by name; `display_name` beside `display` (spec, 3.4 only). NetBox 4.2's Q-in-Q
 * role and service VLAN are 4.4's (vlan-qinq.ts).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { lookupOne, preloadLookups } from '../../core/crud/row-by-id.js';
import { defineModel } from '../../core/model/define-model.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { comments, fk, tenantField } from '../fields.js';
import {
  l2vpnFilters,
  l2vpnTerminationField,
  l2vpnTerminationRows,
  representL2vpnTermination,
} from '../vpn/l2vpn-assignment.js';
import { BasicStatus } from './choices.js';
import { inRanges, rangesOf, rangesText } from './vid-ranges.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';
import type { Row } from '../../core/model/types.js';
import { qinqSvlanVidFilter, validateVlanQinQ, vlanQinQFields } from './vlan-qinq.js';

/** a VLAN's group as its rules read it: once per group for a whole bulk write (beforeValidate) */
const groupRead = (id: number) => sql<Row>`select * from ipam_vlangroup where id = ${id}`;

export const vlan = defineModel({
  name: 'ipam.vlan',
  path: 'vlans',
  verboseName: 'VLAN',
  fields: {
    site: fk('dcim.site', { onDelete: 'protect' }),
    group: fk('ipam.vlangroup', { onDelete: 'protect' }),
    vid: { kind: 'integer', required: true, min: 1, max: 4094, label: 'VID' },
    name: { kind: 'string', required: true, maxLength: 64 },
    tenant: tenantField(),
    status: { kind: 'choice', choices: BasicStatus, default: 'active' },
    role: fk('ipam.role', { onDelete: 'set_null' }),
    description: { kind: 'string', maxLength: 200 },
    ...vlanQinQFields(),
    comments: comments(),
    l2vpn_termination: l2vpnTerminationField(),
    // spec: VLANs carry display_name as well as display
    display_name: { kind: 'computed', shape: { type: 'string' } },
  },
  display: (row) => `${row.name} (${row.vid})`,
  counts: { prefix_count: { model: 'ipam.prefix', via: 'vlan' } },
  uniqueTogether: [
    // NetBox 3.4: VLAN.vid's verbose name is "ID"
    { fields: ['group', 'vid'], message: 'VLAN with this Group and ID already exists.' },
    { fields: ['group', 'name'] },
    // NetBox 4.2: a customer VLAN's VID and name are unique per service VLAN (Django's message)
    { fields: ['qinq_svlan', 'vid'], message: 'VLAN with this Qinq svlan and VLAN ID already exists.' },
    { fields: ['qinq_svlan', 'name'], message: 'VLAN with this Qinq svlan and Name already exists.' },
  ],
  filters: {
    ...tenancyFilters(),
    region: relatedFilter(['site', 'region']),
    region_id: relatedFilter(['site', 'region'], { byId: true }),
    site_group: relatedFilter(['site', 'group']),
    site_group_id: relatedFilter(['site', 'group'], { byId: true }),
    ...l2vpnFilters('ipam.vlan'),
  },
  netbox44: {
    hidden: ['display_name'],
    // NetBox 4.2: by the service VLAN's VID (`qinq_role` and `qinq_svlan_id` come with the fields)
    filters: { qinq_svlan_vid: qinqSvlanVidFilter },
  },
  // the L2VPN termination of each object of a page, read with the page
  representRows: { l2vpn_termination: l2vpnTerminationRows('ipam.vlan') },
  hooks: {
    async beforeValidate({ rc, items }) {
      // one read per group: a bulk create of 100 VLANs in five groups read a group 100 times
      await preloadLookups(
        rc,
        items.map((d) => d.group_id),
        groupRead,
        (ids) => sql<Row>`select id as __of, * from ipam_vlangroup where id = any(${ids}::bigint[])`,
      );
    },
    async validate({ rc, data, before }) {
      const qinq = await validateVlanQinQ(rc, data, before);
      if (data.group_id == null) return qinq;
      const group = await lookupOne(rc, groupRead(Number(data.group_id)));
      if (!group) return qinq;
      const errors: Record<string, string[]> = { ...qinq };
      // NetBox 3.4: a VLAN in a group may only name a site when the group is scoped to that site
      if (
        data.site_id != null &&
        !(group.scope_type === 'dcim.site' && Number(group.scope_id) === Number(data.site_id))
      ) {
        const site = await sql<{ name: string }>`select name from dcim_site where id = ${data.site_id}`.execute(rc.q);
        const scope = await scopeName(rc, group);
        errors.group = [
          `VLAN is assigned to group ${group.name} (scope: ${scope}); cannot also assign to site ${site.rows[0]?.name}.`,
        ];
      }
      const vid = Number(data.vid);
      const ranges = rangesOf(group);
      if (!inRanges(ranges, vid)) {
        // NetBox 4.0 words it by the ranges; 3.4's words a group of one range as it always did
        errors.vid = [
          rc.dialect === '3.4' && ranges.length === 1
            ? `VID must be between ${group.min_vid} and ${group.max_vid} for VLANs in group ${group.name}`
            : `VID must be in ranges ${rangesText(ranges)} for VLANs in group ${group.name}`,
        ];
      }
      return errors;
    },
    async represent(rc, rows, out, { mode, readRows }) {
      // spec: display_name beside display; NetBox 4 has none (display says it)
      if (mode === 'full' && rc.dialect === '3.4') for (const o of out) o.display_name = o.display;
      await representL2vpnTermination(rc, rows, out, mode, () => readRows('l2vpn_termination'));
    },
  },
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { qinq_svlan: 'vid' },
    // NetBox's VLAN tabs: the interfaces carrying it, untagged or tagged
    tabs: [
      {
        slug: 'interfaces',
        model: 'dcim.interface',
        param: 'vlan_id',
        label: 'Device interfaces',
        columns: ['device', 'name', 'mode', 'untagged_vlan', 'tagged_vlans'],
      },
      {
        slug: 'vm-interfaces',
        model: 'virtualization.vminterface',
        param: 'vlan_id',
        label: 'VM interfaces',
        columns: ['virtual_machine', 'name', 'mode', 'untagged_vlan', 'tagged_vlans'],
      },
    ],
    columns: ['vid', 'name', 'site', 'group', 'tenant', 'status', 'role', 'description'],
    clone: ['site', 'group', 'tenant', 'status', 'role', 'description'],
    groups: [
      { title: 'VLAN', fields: ['vid', 'name', 'status', 'role', 'description'] },
      { title: 'Q-in-Q (802.1ad)', fields: ['qinq_role', 'qinq_svlan'] },
      { title: 'Tenancy', fields: ['tenant'] },
      { title: 'Assignment', fields: ['group', 'site'] },
    ],
  },
  brief: ['vid', 'name'],
  ordering: ['site', 'group', 'vid'],
  search: ['name', 'description'],
});

async function scopeName(rc: RequestContext, group: Row): Promise<string> {
  const model = group.scope_type ? rc.app.registry.find(String(group.scope_type)) : undefined;
  if (!model || group.scope_id == null) return 'None';
  const res = await sql<Row>`select * from ${sql.table(model.table)} where id = ${group.scope_id}`.execute(rc.q);
  return res.rows[0] ? model.display(res.rows[0]) : 'None';
}
