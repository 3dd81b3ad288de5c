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
  counts: {
    site_count: { model: 'dcim.site', via: 'tenant' },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'tenant' },
    cluster_count: { model: 'virtualization.cluster', via: 'tenant' },
  },
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'slug', 'description', 'comments'],
});
