import { defineModel } from '../../core/model/define-model.js';
import { membershipFilter } from './membership-filter.js';
import { hashPassword } from './password.js';

export const user = defineModel({
  name: 'users.user',
  path: 'users',
  verboseName: 'user',
  table: 'users_user',
  fields: {
    username: {
      kind: 'string',
      required: true,
      maxLength: 150,
      unique: true,
      // Django's AbstractUser.username error_messages['unique'], which DRF's UniqueValidator uses
      uniqueMessage: 'A user with that username already exists.',
      pattern: {
        regex: /^[\w.@+-]+$/,
        message: 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
      },
    },
    password: { kind: 'password', required: true, writeOnly: true, maxLength: 128 },
    first_name: { kind: 'string', maxLength: 150 },
    last_name: { kind: 'string', maxLength: 150 },
    email: {
      kind: 'string',
      maxLength: 254,
      pattern: { regex: /^[^\s@]+@[^\s@]+$/, message: 'Enter a valid email address.' },
    },
    is_staff: { kind: 'boolean', default: false },
    is_active: { kind: 'boolean', default: true },
    // read-only: NetBox 3.4's API cannot make superusers, so a user allowed to add or change users
    // cannot escalate through it (reference 3.7); still filterable, as in NetBox
    is_superuser: { kind: 'boolean', default: false, readOnly: true },
    date_joined: { kind: 'datetime', default: () => new Date().toISOString() },
    // NetBox 4.4's UserSerializer shows it (the sign-in records it)
    last_login: { kind: 'datetime', nullable: true, readOnly: true, dialect: '4.4' },
    groups: {
      kind: 'm2m',
      to: 'users.group',
      through: { table: 'users_user_groups', from: 'user_id', to: 'group_id' },
    },
    // NetBox 4.0: a user's object permissions, written from the user's side too (the Ansible
    // collection's netbox_user sends them); the same rows as the permission's `users`
    permissions: {
      kind: 'm2m',
      to: 'users.objectpermission',
      through: { table: 'users_objectpermission_users', from: 'user_id', to: 'objectpermission_id' },
      dialect: '4.4',
    },
  },
  naturalKey: 'username',
  // reference: netbox-filters, /api/users/users/ group[n], group_id[n]
  filters: { group: membershipFilter('groups', 'name'), group_id: membershipFilter('groups', 'id') },
  tags: false,
  customFields: false,
  timestamps: false,
  // NetBox 4.4's UserSerializer has no is_superuser
  netbox44: { hidden: ['is_superuser'] },
  display: (row) => {
    const full = [row.first_name, row.last_name].filter(Boolean).join(' ');
    return full ? `${row.username} (${full})` : String(row.username);
  },
  hooks: {
    async prepare({ data }) {
      // passwords are stored hashed, on create and on update alike (NetBox 3.4 forgot the latter)
      if (typeof data.password === 'string') data.password = await hashPassword(data.password);
    },
  },
  ui: {
    columns: ['username', 'first_name', 'last_name', 'email', 'is_active'],
    groups: [
      { title: 'User', fields: ['username', 'password', 'first_name', 'last_name', 'email'] },
      { title: 'Groups', fields: ['groups'] },
      { title: 'Status', fields: ['is_active', 'is_staff', 'is_superuser'] },
    ],
  },
  brief: ['username'],
  ordering: ['username'],
  search: ['username', 'first_name', 'last_name', 'email'],
});
