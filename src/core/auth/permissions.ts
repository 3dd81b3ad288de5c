/**
 * Object permissions (reference 7.4): a user needs some permission for `<app>.<action>_<model>`;
 * its constraints then scope which objects the action reaches. Superusers bypass everything;
 * EXEMPT_VIEW_PERMISSIONS opens `view` to everyone; DEFAULT_PERMISSIONS are granted to every user.
 */
import { sql } from 'kysely';
import type { Constraints, RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { constraintsSql } from '../query/constraints.js';
import type { Cond } from '../query/lookups.js';

export type Action = 'view' | 'add' | 'change' | 'delete' | (string & {});

// NetBox: `*` exempts every model except these, unless they are named
const NEVER_EXEMPT_BY_WILDCARD = new Set(['users.user', 'users.group', 'users.objectpermission', 'users.token']);

function isExemptView(rc: RequestContext, model: ModelDef): boolean {
  const list = rc.app.config.exemptViewPermissions;
  if (list.includes(model.name)) return true;
  return list.includes('*') && !NEVER_EXEMPT_BY_WILDCARD.has(model.name);
}

function permissionName(model: ModelDef, action: Action): string {
  return `${model.app}.${action}_${model.model}`;
}

async function loadPermissions(rc: RequestContext): Promise<Map<string, Constraints[]>> {
  if (rc.permissions) return rc.permissions;
  const map = new Map<string, Constraints[]>();
  const add = (name: string, c: Constraints) => {
    const list = map.get(name) ?? [];
    list.push(c);
    map.set(name, list);
  };
  for (const [name, c] of Object.entries(rc.app.config.defaultPermissions)) add(name, (c ?? null) as Constraints);
  if (rc.user) {
    const res = await sql<{ object_types: string[]; actions: string[]; constraints: Constraints }>`
      select p.object_types, p.actions, p.constraints from users_objectpermission p
      where p.enabled and (
        exists (select 1 from users_objectpermission_users pu where pu.objectpermission_id = p.id and pu.user_id = ${rc.user.id})
        or exists (select 1 from users_objectpermission_groups pg join users_user_groups ug on ug.group_id = pg.group_id
                   where pg.objectpermission_id = p.id and ug.user_id = ${rc.user.id}))`.execute(rc.q);
    for (const p of res.rows) {
      for (const ot of p.object_types) {
        const [app, model] = ot.split('.');
        for (const action of p.actions) add(`${app}.${action}_${model}`, p.constraints ?? null);
      }
    }
  }
  // spec: Authentication 9 - users.grant_token is what lets a user create tokens for others, and
  // "the requester can then see the created tokens": it extends add and view on tokens within its
  // own constraints (otherwise DEFAULT_PERMISSIONS' {"user": "$user"} would refuse the new token)
  for (const c of map.get('users.grant_token') ?? []) {
    add('users.add_token', c);
    add('users.view_token', c);
  }
  rc.permissions = map;
  return map;
}

/** True when the user holds the permission at all (any constraints). */
export async function hasPermission(rc: RequestContext, model: ModelDef, action: Action): Promise<boolean> {
  if (rc.user?.is_superuser) return true;
  if (action === 'view' && isExemptView(rc, model)) return true;
  if (!rc.user) return false;
  return (await loadPermissions(rc)).has(permissionName(model, action));
}

/**
 * Checks the permission and returns the SQL condition that scopes the action (null = every
 * object). Throws 403 when the user holds no such permission.
 */
export async function requirePermission(rc: RequestContext, model: ModelDef, action: Action): Promise<Cond | null> {
  if (rc.user?.is_superuser) return null;
  if (action === 'view' && isExemptView(rc, model)) return null;
  if (!rc.user) throw Errors.notAuthenticated();
  const granted = (await loadPermissions(rc)).get(permissionName(model, action));
  if (!granted) throw Errors.permissionDenied();
  return constraintsSql(rc, model, granted);
}

/** After a create or update: every written object must still satisfy the action's constraints. */
export async function assertWithinConstraints(
  rc: RequestContext,
  model: ModelDef,
  scope: Cond | null,
  ids: number[],
): Promise<void> {
  if (!scope || ids.length === 0) return;
  const res = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(model.table)} as t
    where t.id = any(${ids}::bigint[]) and ${scope}`.execute(rc.q);
  if (Number(res.rows[0]!.n) !== new Set(ids).size) throw Errors.permissionDenied();
}
