/**
 * The enabled event rules that send webhooks, cached per process under the version of their one
 * table (db/table-generations.ts): every create, update and delete asks which rules it triggers.
 */
import { sql } from 'kysely';
import type { AppContext, RequestContext } from '../context.js';
import { cacheVersion } from '../cache/cache-version.js';
import { createVersionedCache, type VersionedCache } from '../cache/versioned-cache.js';

export interface ActiveRule {
  id: number;
  webhook_id: number;
  type_create: boolean;
  type_update: boolean;
  type_delete: boolean;
  content_types: string[];
}

const RULE_TABLES = ['extras_eventrule'];
const caches = new WeakMap<AppContext, VersionedCache<ActiveRule[]>>();

/** Every enabled webhook rule, in id order: preloaded for a write, else cached, else read. */
export function activeRules(rc: RequestContext): Promise<readonly ActiveRule[]> {
  const pre = rc.preloaded?.eventRules;
  if (pre) return Promise.resolve(pre);
  let cache = caches.get(rc.app);
  if (!cache) caches.set(rc.app, (cache = createVersionedCache<ActiveRule[]>({ max: 1 })));
  return cache.through('all', cacheVersion(rc, RULE_TABLES), async () => {
    const res =
      await sql<ActiveRule>`select id, action_object_id as webhook_id, type_create, type_update, type_delete, content_types
      from extras_eventrule where enabled and action_type = 'webhook' and action_object_type = 'extras.webhook' order by id`.execute(
        rc.q,
      );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), webhook_id: Number(r.webhook_id) }));
  });
}
