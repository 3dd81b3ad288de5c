/**
 * Who is subscribed to what (NetBox 4.1 extras.Subscription), cached per process under the version
 * of its one table (core/cache/README.md), like the enabled event rules (active-rules.ts): every
 * update and delete of a change-logged object asks whether anyone listens, and the answer must
 * cost nothing when nobody does. The users come with it, so the outbox row of a deletion can name
 * them although the deletion takes their subscriptions away in the same transaction.
 */
import { sql } from 'kysely';
import type { AppContext, RequestContext } from '../context.js';
import { cacheVersion } from '../cache/cache-version.js';
import { createVersionedCache, type VersionedCache } from '../cache/versioned-cache.js';

/** `model:id` -> the subscribed users' ids */
export type Subscribers = ReadonlyMap<string, readonly number[]>;

const SUBSCRIPTION_TABLES = ['extras_subscription'];
const caches = new WeakMap<AppContext, VersionedCache<Subscribers>>();

/** Every subscription, by object: preloaded for a write, else cached, else read. */
export function subscribers(rc: RequestContext): Promise<Subscribers> {
  const pre = rc.preloaded?.subscribers;
  if (pre) return Promise.resolve(pre);
  let cache = caches.get(rc.app);
  if (!cache) caches.set(rc.app, (cache = createVersionedCache<Subscribers>({ max: 1 })));
  return cache.through('all', cacheVersion(rc, SUBSCRIPTION_TABLES), async () => {
    const res = await sql<{
      object_type: string;
      object_id: string | number;
      user_id: string | number;
    }>`select object_type, object_id, user_id from extras_subscription order by id`.execute(rc.q);
    const byObject = new Map<string, number[]>();
    for (const r of res.rows) {
      const key = `${r.object_type}:${r.object_id}`;
      const users = byObject.get(key);
      if (users) users.push(Number(r.user_id));
      else byObject.set(key, [Number(r.user_id)]);
    }
    return byObject;
  });
}
