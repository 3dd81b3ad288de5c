import { defineModel } from '../../core/model/define-model.js';
import { guardGroupOfActor } from './own-rights.js';
import { description } from '../fields.js';

export const group = defineModel({
  name: 'users.group',
  path: 'groups',
  verboseName: 'group',
  table: 'users_group',
  fields: {
    name: { kind: 'string', required: true, maxLength: 150, unique: true },
    // NetBox 4.0, shown in the 4.4 dialect only
    description: { ...description(), dialect: '4.4' },
    // NetBox 4.0: a group's object permissions, the same rows as the permission's `groups`
    permissions: {
      kind: 'm2m',
      to: 'users.objectpermission',
      through: { table: 'users_objectpermission_groups', from: 'group_id', to: 'objectpermission_id' },
      dialect: '4.4',
    },
  },
  counts: { user_count: { through: { table: 'users_user_groups', column: 'group_id' } } },
  tags: false,
  customFields: false,
  timestamps: false,
  hooks: {
    async prepare({ rc, before, m2m }) {
      await guardGroupOfActor(rc, before, m2m);
    },
  },
  ui: {
    columns: ['id', 'name', 'user_count'],
    groups: [{ title: '', fields: ['name', 'description'] }],
    // members are chosen on the user's form, as in NetBox; the group shows them and its permissions
    tabs: [
      { slug: 'users', model: 'users.user', param: 'group_id', label: 'Members', countKey: 'user_count' },
      { slug: 'permissions', model: 'users.objectpermission', param: 'group_id' },
    ],
  },
  brief: ['name'],
  // NetBox 4.0: groups have a description, shown in the brief form
  netbox44: { brief: ['name', 'description'] },
  ordering: ['name'],
  search: ['name'],
});
