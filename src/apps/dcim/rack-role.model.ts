import { defineModel } from '../../core/model/define-model.js';
import { color, description, name, slug } from '../fields.js';

/** Rack roles (reference 3.2): a functional label for racks. */
export const rackRole = defineModel({
  name: 'dcim.rackrole',
  path: 'rack-roles',
  verboseName: 'rack role',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    color: color(),
    description: description(),
  },
  counts: { rack_count: { model: 'dcim.rack', via: 'role', kept: true } },
  ui: {
    columns: ['name', 'rack_count', 'color', 'description'],
    groups: [{ title: 'Rack Role', fields: ['name', 'slug', 'color', 'description'] }],
    related: [{ model: 'dcim.rack', param: 'role_id' }],
  },
  brief: ['name', 'slug', 'rack_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'rack_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
