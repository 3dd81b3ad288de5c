/**
 * Object permissions (reference 7.4), enforced for every model by core/auth/permissions.ts.
 */
import { defineModel } from '../../core/model/define-model.js';
import { ConstraintError, attributesCondition } from '../../core/query/constraints.js';
import { description } from '../fields.js';

export const objectPermission = defineModel({
  name: 'users.objectpermission',
  path: 'permissions',
  verboseName: 'permission',
  table: 'users_objectpermission',
  fields: {
    name: { kind: 'string', required: true, maxLength: 100 },
    description: description(),
    enabled: { kind: 'boolean', default: true },
    object_types: { kind: 'strings', required: true },
    groups: { kind: 'm2m', to: 'users.group', through: { table: 'users_objectpermission_groups', from: 'objectpermission_id', to: 'group_id' } },
    users: { kind: 'm2m', to: 'users.user', through: { table: 'users_objectpermission_users', from: 'objectpermission_id', to: 'user_id' } },
    actions: { kind: 'strings', required: true },
    constraints: { kind: 'json', nullable: true },
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
              try {
                attributesCondition(rc.app.registry, model, JSON.parse(JSON.stringify(s).replace(/"\$user"/g, '0')));
              } catch (err) {
                if (!(err instanceof ConstraintError)) throw err;
                add('constraints', `Invalid filter for ${t}: ${err.message}`);
              }
            }
          }
        }
      }
      return errors;
    },
  },
  brief: ['name', 'enabled', 'object_types', 'actions'],
  ordering: ['name'],
  search: ['name', 'description'],
});
