/** BGP route targets (reference 3.3), imported and exported by VRFs. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name, tenantField } from '../fields.js';
import { tenancyFilters, throughFilter } from '../../core/query/filter-blocks.js';

const vrfFilter = (param: string, table: string, key: 'id' | 'rd') =>
  throughFilter(param, { table, own: 'routetarget_id', other: 'vrf_id' }, { table: 'ipam_vrf', key });

export const routeTarget = defineModel({
  name: 'ipam.routetarget',
  path: 'route-targets',
  verboseName: 'route target',
  fields: {
    // NetBox 3.4: an RFC 4364 value such as 65000:100, at most 21 characters
    name: name(21, { unique: true }),
    tenant: tenantField(),
    description: description(),
    comments: comments(),
  },
  filters: {
    ...tenancyFilters(),
    importing_vrf_id: vrfFilter('importing_vrf_id', 'ipam_vrf_import_targets', 'id'),
    importing_vrf: vrfFilter('importing_vrf', 'ipam_vrf_import_targets', 'rd'),
    exporting_vrf_id: vrfFilter('exporting_vrf_id', 'ipam_vrf_export_targets', 'id'),
    exporting_vrf: vrfFilter('exporting_vrf', 'ipam_vrf_export_targets', 'rd'),
  },
  ui: {
    columns: ['name', 'tenant', 'description'],
    groups: [
      { title: 'Route Target', fields: ['name', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
