/** Contact roles (NetBox 3.4 ContactRole, an organizational model): what a contact is for an object. */
import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

export const contactRole = defineModel({
  name: 'tenancy.contactrole',
  path: 'contact-roles',
  verboseName: 'contact role',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
  },
  ui: {
    columns: ['name', 'description'],
    groups: [{ title: 'Contact Role', fields: ['name', 'slug', 'description'] }],
    related: [{ model: 'tenancy.contactassignment', param: 'role_id' }],
  },
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
