/**
 * Whether the signed-in user has bookmarked and subscribed to one object (the object page's
 * Bookmark and Subscribe buttons): one statement over the two tables' unique indexes.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';

export interface OwnMarks {
  bookmarked: boolean;
  subscribed: boolean;
}

export async function ownMarks(rc: RequestContext, objectType: string, objectId: number): Promise<OwnMarks> {
  const user = rc.user;
  if (!user) return { bookmarked: false, subscribed: false };
  const res = await sql<OwnMarks>`select
      exists (select 1 from extras_bookmark where object_type = ${objectType} and object_id = ${objectId} and user_id = ${user.id}) as bookmarked,
      exists (select 1 from extras_subscription where object_type = ${objectType} and object_id = ${objectId} and user_id = ${user.id}) as subscribed`.execute(
    rc.q,
  );
  return res.rows[0]!;
}
