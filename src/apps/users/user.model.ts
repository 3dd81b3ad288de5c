import { defineModel } from '../../core/model/define-model.js';
import { sql } from 'kysely';
import { membershipFilter } from './membership-filter.js';
import { guardOwnMembership, ownStatusErrors } from './own-rights.js';
import { checksPasswords, passwordProblems } from './password-rules.js';
import { hashPassword, unusablePassword } from './password.js';

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
    // a superuser may make superusers from the pages (FieldDef.pageWrite; own-rights.ts)
    is_superuser: { kind: 'boolean', default: false, readOnly: true, pageWrite: 'superuser' },
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
    async validate({ rc, data, before, sent }) {
      const errors = ownStatusErrors(rc, data, before, sent);
      if (typeof data.password === 'string' && checksPasswords(rc)) {
        const username = String(data.username ?? before?.username ?? '');
        const problems = passwordProblems(data.password, username, rc.app.config.passwordMinLength);
        if (problems.length) errors.password = problems;
      }
      return errors;
    },
    async prepare({ rc, data, before, m2m }) {
      await guardOwnMembership(rc, before, m2m);
      // passwords are stored hashed, on create and on update alike (NetBox 3.4 forgot the latter)
      if (typeof data.password === 'string') data.password = await hashPassword(data.password);
      // a copied user (import-netbox/): the source's API shows no password
      else if (rc.importing && !before) data.password = unusablePassword();
    },
    async afterUpdate({ rc, data, row }) {
      // a new password ends every session of its user (Django: the session's auth hash no longer
      // matches); the password page starts a fresh one for the browser that changed it
      if (typeof data.password === 'string')
        await sql`delete from users_session where user_id = ${Number(row.id)}`.execute(rc.q);
    },
  },
  ui: {
    columns: ['username', 'first_name', 'last_name', 'email', 'is_active'],
    groups: [
      { title: 'User', fields: ['username', 'password', 'first_name', 'last_name', 'email'] },
      { title: 'Groups', fields: ['groups'] },
      { title: 'Status', fields: ['is_active', 'is_staff', 'is_superuser'] },
    ],
    // an administrator sees every user's tokens and permissions from the user's page
    tabs: [
      { slug: 'api-tokens', model: 'users.token', param: 'user_id', label: 'API tokens' },
      { slug: 'permissions', model: 'users.objectpermission', param: 'user_id' },
    ],
  },
  brief: ['username'],
  ordering: ['username'],
  search: ['username', 'first_name', 'last_name', 'email'],
});
