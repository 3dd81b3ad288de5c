/**
 * A user's dashboard row (`extras_dashboard`): the one place its SQL lives, shared by
 * `/api/extras/dashboard/` (dashboard.routes.ts) and the web dashboard at `/` (web/dashboard/).
 * A user without a row gets the default dashboard, stored on first read so its widget ids stay
 * put (NetBox 3.6 get_dashboard does the same).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { type DashboardData, defaultDashboard } from './dashboard-default.js';

/** The stored row, or null. `forUpdate` locks it until the transaction ends (a read before a write). */
async function readDashboard(rc: RequestContext, userId: number, forUpdate = false): Promise<DashboardData | null> {
  const res = await sql<DashboardData>`select layout, config from extras_dashboard where user_id = ${userId}${
    forUpdate ? sql` for update` : sql``
  }`.execute(rc.q);
  return res.rows[0] ?? null;
}

/** The stored dashboard, the default one stored first when there is none. */
export async function dashboardOf(rc: RequestContext, userId: number, forUpdate = false): Promise<DashboardData> {
  const stored = await readDashboard(rc, userId, forUpdate);
  if (stored) return stored;
  const d = defaultDashboard();
  // a page's GET reads outside a transaction, perhaps on a replica: the default is stored, and read
  // back, on the primary (db/replicas/README.md)
  const primary = rc.q.isTransaction ? rc : { ...rc, q: rc.app.db.kysely };
  // a concurrent first read may store its own default first: that one wins
  await sql`insert into extras_dashboard (user_id, layout, config) values (${userId}, ${JSON.stringify(d.layout)}::jsonb, ${JSON.stringify(d.config)}::jsonb)
    on conflict (user_id) do nothing`.execute(primary.q);
  return (await readDashboard(primary, userId, forUpdate))!;
}

/** Replaces a stored dashboard's layout and config (the row exists: read it with dashboardOf first). */
export async function saveDashboard(rc: RequestContext, userId: number, data: DashboardData): Promise<void> {
  await sql`update extras_dashboard set layout = ${JSON.stringify(data.layout)}::jsonb, config = ${JSON.stringify(data.config)}::jsonb
    where user_id = ${userId}`.execute(rc.q);
}

/** Removes it: the next read starts again from the default. */
export async function deleteDashboard(rc: RequestContext, userId: number): Promise<void> {
  await sql`delete from extras_dashboard where user_id = ${userId}`.execute(rc.q);
}
