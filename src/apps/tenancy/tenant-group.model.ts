import { defineModel } from '../../core/model/define-model.js';
import { description, fk, name, slug } from '../fields.js';

export const tenantGroup = defineModel({
  name: 'tenancy.tenantgroup',
  path: 'tenant-groups',
  verboseName: 'tenant group',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    parent: fk('tenancy.tenantgroup', { onDelete: 'cascade', treeFilter: true }),
    description: description(),
  },
  treeParent: 'parent',
  counts: { tenant_count: { model: 'tenancy.tenant', via: 'group', cumulative: true } },
  brief: ['name', 'slug', 'tenant_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
