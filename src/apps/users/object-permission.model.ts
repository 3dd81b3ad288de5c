/**
 * Object permissions (reference 7.4), enforced for every model by core/auth/permissions.ts.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { Registry } from '../../core/model/registry.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Kdb } from '../../db/client.js';
import { ConstraintError, attributesCondition } from '../../core/query/constraints.js';
import type { Cond } from '../../core/query/lookups.js';
import { description } from '../fields.js';
import { membershipFilter } from './membership-filter.js';

/**
 * Why one constraint set cannot filter `model`, or null. Names are checked while compiling; values
 * are checked by running the filter once (in a savepoint, so a failure leaves the write's
 * transaction usable): `{"id__gt": "abc"}` would otherwise fail on every later request of the
 * permission's holders (NetBox validates with a trial queryset.filter() too).
 */
async function constraintError(
  q: Kdb,
  registry: Registry,
  model: ModelDef,
  set: Record<string, unknown>,
): Promise<string | null> {
  let cond: Cond;
  try {
    cond = attributesCondition(registry, model, JSON.parse(JSON.stringify(set).replace(/"\$user"/g, '0')));
  } catch (err) {
    if (!(err instanceof ConstraintError)) throw err;
    return err.message;
  }
  await sql`savepoint permission_constraints`.execute(q);
  try {
    await sql`select 1 from ${sql.table(model.table)} as t where ${cond} limit 1`.execute(q);
    await sql`release savepoint permission_constraints`.execute(q);
    return null;
  } catch (err) {
    await sql`rollback to savepoint permission_constraints`.execute(q);
    return (err as Error).message;
  }
}

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
    object_types: { kind: 'strings', required: true },
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
    actions: { kind: 'strings', required: true },
    constraints: { kind: 'json', nullable: true },
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
      const types = (data.object_types as string[]) ?? [];
      if (!types.length) add('object_types', 'This list may not be empty.');
      for (const t of types) if (!rc.app.registry.find(t)) add('object_types', `Invalid content type: ${t}`);
      const actions = (data.actions as string[]) ?? [];
      if (!actions.length) add('actions', 'At least one action must be selected.');
      for (const a of actions) if (!/^[a-z_]+$/.test(a)) add('actions', `Invalid action: ${a}`);
      const c = data.constraints;
      if (c != null) {
        const sets = Array.isArray(c) ? c : [c];
        if (sets.some((s) => typeof s !== 'object' || s === null || Array.isArray(s))) {
          add('constraints', 'Constraints must be a JSON object or a list of JSON objects.');
        } else {
          // every constraint must make sense for every object type it covers
          for (const t of types) {
            const model = rc.app.registry.find(t);
            if (!model) continue;
            for (const s of sets as Array<Record<string, unknown>>) {
              if (Object.keys(s).length === 0) continue;
              const error = await constraintError(rc.q, rc.app.registry, model, s);
              if (error) add('constraints', `Invalid filter for ${t}: ${error}`);
            }
          }
        }
      }
      return errors;
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
