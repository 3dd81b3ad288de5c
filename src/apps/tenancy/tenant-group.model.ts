import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name, slug } from '../fields.js';

export const tenantGroup = defineModel({
  name: 'tenancy.tenantgroup',
  path: 'tenant-groups',
  verboseName: 'tenant group',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    // NetBox 3.4: `parent` and `parent_id` match direct children only, as for regions
    parent: fk('tenancy.tenantgroup', { onDelete: 'cascade' }),
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  treeParent: 'parent',
  counts: { tenant_count: { model: 'tenancy.tenant', via: 'group', cumulative: true } },
  ui: {
    columns: ['name', 'tenant_count', 'description'],
    groups: [{ title: 'Tenant Group', fields: ['parent', 'name', 'slug', 'description'] }],
    related: [{ model: 'tenancy.tenant', param: 'group_id' }],
  },
  brief: ['name', 'slug', 'tenant_count', '_depth'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'tenant_count', '_depth'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
