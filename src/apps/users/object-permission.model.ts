/**
 * Object permissions (reference 7.4), enforced for every model by core/auth/permissions.ts. As
 * NetBox's API (3.4 and 4.4 alike), a write takes an empty list of object types and does not try
 * the constraints against the types' fields: a constraint that cannot filter a model is refused
 * where it is used, with a 400 naming it (core/query/constraints.ts). A page's write tries them
 * (constraint-check.ts) and shows the problem on the form. Nobody but a superuser changes a
 * permission that applies to themselves (own-rights.ts).
 */
import { defineModel } from '../../core/model/define-model.js';
import { constraintProblems } from './constraint-check.js';
import { guardPermissionOfActor } from './own-rights.js';
import { description } from '../fields.js';
import { membershipFilter } from './membership-filter.js';

export const objectPermission = defineModel({
  name: 'users.objectpermission',
  path: 'permissions',
  verboseName: 'permission',
  schemaName: 'ObjectPermission',
  table: 'users_objectpermission',
  fields: {
    name: { kind: 'string', required: true, maxLength: 100 },
    description: description(),
    enabled: { kind: 'boolean', default: true },
    object_types: {
      kind: 'strings',
      required: true,
      // a page offers every model by its app and name (NetBox's object type selector)
      formOptions: (rc) =>
        rc.app.registry
          .all()
          .map((m): [string, string] => [m.name, `${m.name.split('.')[0]} | ${m.verboseName}`])
          .sort((a, b) => a[1].localeCompare(b[1])),
    },
    // rendered as group names and usernames (represent below)
    groups: {
      kind: 'm2m',
      to: 'users.group',
      through: { table: 'users_objectpermission_groups', from: 'objectpermission_id', to: 'group_id' },
      shape: { type: 'array', items: { type: 'string' } },
    },
    users: {
      kind: 'm2m',
      to: 'users.user',
      through: { table: 'users_objectpermission_users', from: 'objectpermission_id', to: 'user_id' },
      shape: { type: 'array', items: { type: 'string' } },
    },
    // NetBox's four; other actions a model knows (a script's `run`) stay when stored (formOptions)
    actions: {
      kind: 'strings',
      required: true,
      formOptions: () => [
        ['view', 'View'],
        ['add', 'Add'],
        ['change', 'Change'],
        ['delete', 'Delete'],
      ],
    },
    constraints: {
      kind: 'json',
      nullable: true,
      help: 'A JSON object of attributes (or a list of them, any of which grants), e.g. {"site__slug": "dc1"}; "$user" is the signed-in user.',
    },
  },
  // reference: netbox-filters, /api/users/permissions/ user[n], user_id[n], group[n], group_id[n]
  filters: {
    user: membershipFilter('users', 'username'),
    user_id: membershipFilter('users', 'id'),
    group: membershipFilter('groups', 'name'),
    group_id: membershipFilter('groups', 'id'),
  },
  tags: false,
  customFields: false,
  timestamps: false,
  hooks: {
    async validate({ rc, data }) {
      const errors: Record<string, string[]> = {};
      const add = (k: string, m: string) => (errors[k] ??= []).push(m);
      // NetBox: ContentTypeField(many=True) allows an empty list (the Ansible collection writes one)
      for (const t of (data.object_types as string[]) ?? [])
        if (!rc.app.registry.find(t)) add('object_types', `Invalid content type: ${t}`);
      const actions = (data.actions as string[]) ?? [];
      if (!actions.length) add('actions', 'At least one action must be selected.');
      for (const a of actions) if (!/^[a-z_]+$/.test(a)) add('actions', `Invalid action: ${a}`);
      const c = data.constraints;
      const sets = c == null ? [] : Array.isArray(c) ? c : [c];
      if (sets.some((s) => typeof s !== 'object' || s === null || Array.isArray(s)))
        add('constraints', 'Constraints must be a JSON object or a list of JSON objects.');
      // a page checks the constraints against every object type as it saves them; the API takes
      // any, as NetBox does (the Ansible collection writes some), and refuses them where used
      else if (rc.viaPage) for (const m of constraintProblems(rc, data)) add('constraints', m);
      return errors;
    },
    async prepare({ rc, before, m2m }) {
      await guardPermissionOfActor(rc, before, m2m);
    },
    represent(_rc, _rows, out, { mode }) {
      if (mode !== 'brief') return;
      for (const o of out) {
        if (Array.isArray(o.groups)) o.groups = o.groups.map((g: { name: string }) => g.name);
        if (Array.isArray(o.users)) o.users = o.users.map((u: { username: string }) => u.username);
      }
    },
  },
  ui: {
    columns: ['name', 'enabled', 'object_types', 'description'],
    clone: ['description', 'enabled', 'object_types', 'actions', 'constraints'],
    groups: [
      { title: '', fields: ['name', 'description', 'enabled'] },
      { title: 'Actions', fields: ['actions'] },
      { title: 'Objects', fields: ['object_types'] },
      { title: 'Assignment', fields: ['groups', 'users'] },
      { title: 'Constraints', fields: ['constraints'] },
    ],
  },
  // reference 3.7: the brief form lists groups and users by name
  brief: ['name', 'enabled', 'object_types', 'groups', 'users', 'actions'],
  // NetBox 4.0: no groups or users in the brief form
  netbox44: { brief: ['name', 'description', 'enabled', 'object_types', 'actions'] },
  ordering: ['name'],
  search: ['name', 'description'],
});
