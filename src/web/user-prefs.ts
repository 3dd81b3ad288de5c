/**
 * A signed-in user's preferences, kept server-side in users_userconfig (the document
 * `/api/users/config/` shows and patches) at NetBox's paths: `tables.SiteTable.columns`.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../core/context.js';

export async function getPref(rc: RequestContext, path: string): Promise<unknown> {
  if (!rc.user) return undefined;
  const r = await sql<{
    v: unknown;
  }>`select data #> ${path.split('.')}::text[] as v from users_userconfig where user_id = ${rc.user.id}`.execute(rc.q);
  return r.rows[0]?.v ?? undefined;
}

/** sets (or, with undefined, removes) the value at `path`, keeping the rest of the document */
export async function setPref(rc: RequestContext, path: string, value: unknown): Promise<void> {
  if (!rc.user) return;
  const keys = path.split('.');
  const v = value === undefined ? null : JSON.stringify(value);
  // one statement: create the document, or set/remove the key, making missing parents on the way
  await sql`insert into users_userconfig (user_id, data) values (${rc.user.id}, '{}'::jsonb)
    on conflict (user_id) do nothing`.execute(rc.q);
  for (let i = 1; i < keys.length; i++) {
    const parent = keys.slice(0, i);
    await sql`update users_userconfig set data = jsonb_set(data, ${parent}::text[], '{}'::jsonb, true)
      where user_id = ${rc.user.id} and jsonb_typeof(data #> ${parent}::text[]) is distinct from 'object'`.execute(
      rc.q,
    );
  }
  if (v === null) {
    await sql`update users_userconfig set data = data #- ${keys}::text[] where user_id = ${rc.user.id}`.execute(rc.q);
  } else {
    await sql`update users_userconfig set data = jsonb_set(data, ${keys}::text[], ${v}::jsonb, true) where user_id = ${rc.user.id}`.execute(
      rc.q,
    );
  }
}
