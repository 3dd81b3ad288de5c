import { defineModel } from '../../core/model/define-model.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { description, name, slug } from '../fields.js';

/** Cluster groups (reference 3.5): an organisational grouping of clusters; can have contacts. */
export const clusterGroup = defineModel({
  name: 'virtualization.clustergroup',
  path: 'cluster-groups',
  verboseName: 'cluster group',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
  },
  filters: { ...contactFilters() },
  counts: { cluster_count: { model: 'virtualization.cluster', via: 'group' } },
  ui: {
    columns: ['name', 'cluster_count', 'description'],
    groups: [{ title: 'Cluster Group', fields: ['name', 'slug', 'description'] }],
    related: [
      { model: 'virtualization.cluster', param: 'group_id' },
      { model: 'ipam.vlangroup', param: 'clustergroup' },
    ],
  },
  brief: ['name', 'slug', 'cluster_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'cluster_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
