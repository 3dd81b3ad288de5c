import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

/** Cluster types (reference 3.5): a technology clusters are built with (VMware, Proxmox…). */
export const clusterType = defineModel({
  name: 'virtualization.clustertype',
  path: 'cluster-types',
  verboseName: 'cluster type',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
  },
  counts: { cluster_count: { model: 'virtualization.cluster', via: 'type' } },
  ui: {
    columns: ['name', 'cluster_count', 'description'],
    groups: [{ title: 'Cluster Type', fields: ['name', 'slug', 'description'] }],
    related: [{ model: 'virtualization.cluster', param: 'type_id' }],
  },
  brief: ['name', 'slug', 'cluster_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'cluster_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
