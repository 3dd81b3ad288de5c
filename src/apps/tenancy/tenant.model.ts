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
  // NetBox 3.4 TenantSerializer, in its order; kept per tenant (migration 0149): a tenant may own a million addresses
  counts: {
    circuit_count: { model: 'circuits.circuit', via: 'tenant', kept: true },
    device_count: { model: 'dcim.device', via: 'tenant', kept: true },
    ipaddress_count: { model: 'ipam.ipaddress', via: 'tenant', kept: true },
    prefix_count: { model: 'ipam.prefix', via: 'tenant', kept: true },
    rack_count: { model: 'dcim.rack', via: 'tenant', kept: true },
    site_count: { model: 'dcim.site', via: 'tenant', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'tenant', kept: true },
    vlan_count: { model: 'ipam.vlan', via: 'tenant', kept: true },
    vrf_count: { model: 'ipam.vrf', via: 'tenant', kept: true },
    cluster_count: { model: 'virtualization.cluster', via: 'tenant', kept: true },
  },
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
});
