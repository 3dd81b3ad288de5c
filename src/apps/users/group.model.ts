import { defineModel } from '../../core/model/define-model.js';

export const group = defineModel({
  name: 'users.group',
  path: 'groups',
  verboseName: 'group',
  table: 'users_group',
  fields: {
    name: { kind: 'string', required: true, maxLength: 150, unique: true },
  },
  counts: { user_count: { through: { table: 'users_user_groups', column: 'group_id' } } },
  tags: false,
  customFields: false,
  timestamps: false,
  ui: { columns: ['id', 'name', 'user_count'], groups: [{ title: '', fields: ['name'] }] },
  brief: ['name'],
  ordering: ['name'],
  search: ['name'],
});
