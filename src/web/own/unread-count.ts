/**
 * The header bell's number: the signed-in user's unread notifications. Every page shows it, so it
 * is cached per user under the version of the one table it reads (core/cache/README.md): a page
 * costs no statement while no notification was written, read or dismissed, and otherwise one
 * probe of the partial index `extras_notification_unread` (migration 0214).
 */
import { sql } from 'kysely';
import { cacheVersion } from '../../core/cache/cache-version.js';
import { createVersionedCache, type VersionedCache } from '../../core/cache/versioned-cache.js';
import type { AppContext, RequestContext } from '../../core/context.js';

const NOTIFICATION_TABLES = ['extras_notification'];
const caches = new WeakMap<AppContext, VersionedCache<number>>();

export function unreadCount(rc: RequestContext): Promise<number> | undefined {
  const user = rc.user;
  if (!user) return undefined;
  let cache = caches.get(rc.app);
  if (!cache) caches.set(rc.app, (cache = createVersionedCache<number>({ max: 10_000 })));
  return cache.through(String(user.id), cacheVersion(rc, NOTIFICATION_TABLES), async () => {
    const res = await sql<{ n: number }>`select count(*)::int as n from extras_notification
      where user_id = ${user.id} and read is null`.execute(rc.q);
    return Number(res.rows[0]?.n ?? 0);
  });
}
