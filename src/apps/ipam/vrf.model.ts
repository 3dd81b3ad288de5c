/**
 * VRFs (reference 3.3): separate routing tables. `rd` is the natural key of the `vrf` filters;
 * `enforce_unique` makes prefixes and addresses unique inside the VRF.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name, tenantField } from '../fields.js';
import { vrfDisplay } from './common.js';
import { tenancyFilters, throughFilter } from '../../core/query/filter-blocks.js';

const targets = (table: string) => ({
  kind: 'm2m' as const,
  to: 'ipam.routetarget',
  through: { table, from: 'vrf_id', to: 'routetarget_id' },
});
const targetFilter = (param: string, table: string, key: 'id' | 'name') =>
  throughFilter(param, { table, own: 'vrf_id', other: 'routetarget_id' }, { table: 'ipam_routetarget', key });

export const vrf = defineModel({
  name: 'ipam.vrf',
  path: 'vrfs',
  verboseName: 'VRF',
  fields: {
    name: name(100),
    rd: { kind: 'string', maxLength: 21, nullable: true, unique: true, label: 'route distinguisher' },
    tenant: tenantField(),
    enforce_unique: { kind: 'boolean', default: true, label: 'enforce unique space' },
    description: description(),
    comments: comments(),
    import_targets: { ...targets('ipam_vrf_import_targets'), relatedName: 'importing_vrfs' },
    export_targets: { ...targets('ipam_vrf_export_targets'), relatedName: 'exporting_vrfs' },
  },
  naturalKey: 'rd',
  display: vrfDisplay,
  counts: {
    // kept per VRF (migration 0149): one may hold a million addresses
    ipaddress_count: { model: 'ipam.ipaddress', via: 'vrf', kept: true },
    prefix_count: { model: 'ipam.prefix', via: 'vrf', kept: true },
  },
  filters: {
    ...tenancyFilters(),
    import_target_id: targetFilter('import_target_id', 'ipam_vrf_import_targets', 'id'),
    import_target: targetFilter('import_target', 'ipam_vrf_import_targets', 'name'),
    export_target_id: targetFilter('export_target_id', 'ipam_vrf_export_targets', 'id'),
    export_target: targetFilter('export_target', 'ipam_vrf_export_targets', 'name'),
  },
  ui: {
    columns: ['name', 'rd', 'tenant', 'description'],
    clone: ['tenant', 'enforce_unique', 'description'],
    groups: [
      { title: 'VRF', fields: ['name', 'rd', 'enforce_unique', 'description'] },
      { title: 'Route Targets', fields: ['import_targets', 'export_targets'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    related: [
      { model: 'ipam.prefix', param: 'vrf_id' },
      { model: 'ipam.iprange', param: 'vrf_id' },
      { model: 'ipam.ipaddress', param: 'vrf_id' },
      { model: 'dcim.interface', param: 'vrf_id', label: 'Device Interfaces' },
      { model: 'virtualization.vminterface', param: 'vrf_id', label: 'VM Interfaces' },
    ],
  },
  brief: ['name', 'rd', 'prefix_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'rd', 'description', 'prefix_count'] },
  ordering: ['name', 'rd'],
  search: ['name', 'rd', 'description', 'comments'],
});
