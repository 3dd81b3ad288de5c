import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name, slug } from '../fields.js';
import { contactFilters } from './contact-filters.js';

export const tenant = defineModel({
  name: 'tenancy.tenant',
  path: 'tenants',
  verboseName: 'tenant',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    group: fk('tenancy.tenantgroup', { treeFilter: true }),
    description: description(),
    comments: comments(),
  },
  filters: contactFilters(),
  // NetBox 3.4 TenantSerializer, in its order
  counts: {
    circuit_count: { model: 'circuits.circuit', via: 'tenant' },
    device_count: { model: 'dcim.device', via: 'tenant' },
    ipaddress_count: { model: 'ipam.ipaddress', via: 'tenant' },
    prefix_count: { model: 'ipam.prefix', via: 'tenant' },
    rack_count: { model: 'dcim.rack', via: 'tenant' },
    site_count: { model: 'dcim.site', via: 'tenant' },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'tenant' },
    vlan_count: { model: 'ipam.vlan', via: 'tenant' },
    vrf_count: { model: 'ipam.vrf', via: 'tenant' },
    cluster_count: { model: 'virtualization.cluster', via: 'tenant' },
  },
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
});
