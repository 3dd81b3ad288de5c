/**
 * No one raises their own rights. A user who may change users, groups or permissions but is not a
 * superuser may not change their own groups or permissions, nor a permission or a group's
 * permissions that apply to them, nor anyone's staff status; only a superuser makes superusers
 * (from the pages: FieldDef.pageWrite), and no superuser demotes or deactivates themselves, so an
 * installation never loses its last way in by a slip. NetBox lets a holder of users.change_* do
 * all of this (its permissions are all or nothing); these rules apply to the API and the pages.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';

async function idsOf(rc: RequestContext, query: ReturnType<typeof sql<{ id: number }>>): Promise<Set<number>> {
  return new Set((await query.execute(rc.q)).rows.map((r) => Number(r.id)));
}

const groupsOfUser = (rc: RequestContext, userId: number) =>
  idsOf(rc, sql<{ id: number }>`select group_id as id from users_user_groups where user_id = ${userId}`);

const sameSet = (a: Set<number>, b: number[]) => a.size === new Set(b).size && b.every((x) => a.has(x));

const refuse = (what: string) => Errors.permissionDenied(`You may not change ${what}: ask a superuser.`);

/** a user's groups or permissions changed by that user, who is not a superuser */
export async function guardOwnMembership(
  rc: RequestContext,
  before: Record<string, unknown> | null,
  m2m: Map<string, number[]>,
): Promise<void> {
  const actor = rc.user;
  if (!actor || actor.is_superuser || !before || Number(before.id) !== actor.id) return;
  const groups = m2m.get('groups');
  if (groups && !sameSet(await groupsOfUser(rc, actor.id), groups)) throw refuse('your own groups');
  const perms = m2m.get('permissions');
  const current = () =>
    idsOf(
      rc,
      sql<{
        id: number;
      }>`select objectpermission_id as id from users_objectpermission_users where user_id = ${actor.id}`,
    );
  if (perms && !sameSet(await current(), perms)) throw refuse('your own permissions');
}

/** a permission that grants the actor something, before or after this write, by a non-superuser */
export async function guardPermissionOfActor(
  rc: RequestContext,
  before: Record<string, unknown> | null,
  m2m: Map<string, number[]>,
): Promise<void> {
  const actor = rc.user;
  if (!actor || actor.is_superuser) return;
  const mine = await groupsOfUser(rc, actor.id);
  const id = before ? Number(before.id) : null;
  const storedUsers =
    id === null
      ? new Set<number>()
      : await idsOf(
          rc,
          sql<{ id: number }>`select user_id as id from users_objectpermission_users where objectpermission_id = ${id}`,
        );
  const storedGroups =
    id === null
      ? new Set<number>()
      : await idsOf(
          rc,
          sql<{
            id: number;
          }>`select group_id as id from users_objectpermission_groups where objectpermission_id = ${id}`,
        );
  const users = m2m.get('users') ?? [...storedUsers];
  const groups = m2m.get('groups') ?? [...storedGroups];
  const appliesBefore = storedUsers.has(actor.id) || [...storedGroups].some((g) => mine.has(g));
  const appliesAfter = users.includes(actor.id) || groups.some((g) => mine.has(g));
  if (appliesBefore || appliesAfter) throw refuse('a permission that applies to you');
}

/** the permissions of a group the actor, not a superuser, belongs to */
export async function guardGroupOfActor(
  rc: RequestContext,
  before: Record<string, unknown> | null,
  m2m: Map<string, number[]>,
): Promise<void> {
  const actor = rc.user;
  const perms = m2m.get('permissions');
  if (!actor || actor.is_superuser || !before || !perms) return;
  if (!(await groupsOfUser(rc, actor.id)).has(Number(before.id))) return;
  const current = await idsOf(
    rc,
    sql<{
      id: number;
    }>`select objectpermission_id as id from users_objectpermission_groups where group_id = ${Number(before.id)}`,
  );
  if (!sameSet(current, perms)) throw refuse('the permissions of your own group');
}

/** field errors of a user's write: staff and superuser status, and a superuser's own account */
export function ownStatusErrors(
  rc: RequestContext,
  data: Record<string, unknown>,
  before: Record<string, unknown> | null,
  sent: Set<string>,
): Record<string, string[]> {
  const actor = rc.user;
  const errors: Record<string, string[]> = {};
  if (!actor) return errors;
  const changes = (k: string) => sent.has(k) && data[k] !== (before ? before[k] : false);
  if (!actor.is_superuser && changes('is_staff')) errors.is_staff = ['Only a superuser may change staff status.'];
  if (before && Number(before.id) === actor.id) {
    if (sent.has('is_active') && data.is_active === false)
      errors.is_active = ['You cannot deactivate your own account.'];
    if (sent.has('is_superuser') && data.is_superuser === false && before.is_superuser)
      errors.is_superuser = ['You cannot remove your own superuser status.'];
  }
  return errors;
}
