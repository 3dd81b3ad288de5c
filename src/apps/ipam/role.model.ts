/** Prefix and VLAN roles (reference 3.3), ordered by weight then name. */
import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

export const role = defineModel({
  name: 'ipam.role',
  path: 'roles',
  verboseName: 'role',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    weight: { kind: 'integer', default: 1000, min: 0, max: 32767 },
    description: description(),
  },
  counts: {
    prefix_count: { model: 'ipam.prefix', via: 'role', kept: true },
    vlan_count: { model: 'ipam.vlan', via: 'role', kept: true },
  },
  ui: {
    columns: ['name', 'prefix_count', 'vlan_count', 'description'],
    groups: [{ title: 'Role', fields: ['name', 'slug', 'weight', 'description'] }],
    related: [
      { model: 'ipam.prefix', param: 'role_id' },
      { model: 'ipam.iprange', param: 'role_id' },
      { model: 'ipam.vlan', param: 'role_id' },
    ],
  },
  brief: ['name', 'slug', 'prefix_count', 'vlan_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'prefix_count', 'vlan_count'] },
  ordering: ['weight', 'name'],
  search: ['name', 'slug', 'description'],
});
