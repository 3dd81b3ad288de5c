/**
 * The enabled event rules the outbox serves - those that send webhooks and (NetBox 4.1) those that
 * notify a notification group - cached per process under the version of their one
 * table (db/table-generations.ts): every create, update and delete asks which rules it triggers.
 */
import { sql } from 'kysely';
import type { AppContext, RequestContext } from '../context.js';
import { cacheVersion } from '../cache/cache-version.js';
import { createVersionedCache, type VersionedCache } from '../cache/versioned-cache.js';

export interface ActiveRule {
  id: number;
  /** 'webhook' or 'notification' (NetBox 4.1 EventRuleActionChoices) */
  action_type: 'webhook' | 'notification';
  /** the webhook's id, or the notification group's */
  action_object_id: number;
  type_create: boolean;
  type_update: boolean;
  type_delete: boolean;
  content_types: string[];
}

const RULE_TABLES = ['extras_eventrule'];
const caches = new WeakMap<AppContext, VersionedCache<ActiveRule[]>>();

/** Every enabled webhook or notification rule, in id order: preloaded for a write, else cached, else read. */
export function activeRules(rc: RequestContext): Promise<readonly ActiveRule[]> {
  const pre = rc.preloaded?.eventRules;
  if (pre) return Promise.resolve(pre);
  let cache = caches.get(rc.app);
  if (!cache) caches.set(rc.app, (cache = createVersionedCache<ActiveRule[]>({ max: 1 })));
  return cache.through('all', cacheVersion(rc, RULE_TABLES), async () => {
    const res =
      await sql<ActiveRule>`select id, action_type, action_object_id, type_create, type_update, type_delete, content_types
      from extras_eventrule where enabled and ((action_type = 'webhook' and action_object_type = 'extras.webhook')
        or (action_type = 'notification' and action_object_type = 'extras.notificationgroup')) order by id`.execute(
        rc.q,
      );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), action_object_id: Number(r.action_object_id) }));
  });
}
