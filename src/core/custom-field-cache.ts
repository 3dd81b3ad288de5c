/**
 * Custom field definitions per model, cached in the process. A write to custom fields in this
 * process invalidates the cache at once; other processes pick the change up within the TTL.
 */
import { sql } from 'kysely';
import type { Kdb } from '../db/client.js';
import type { CustomFieldDef } from './context.js';

const TTL_MS = 5_000;

export function createCustomFieldCache() {
  let cache: { at: number; byModel: Map<string, CustomFieldDef[]> } | null = null;
  return {
    async get(q: Kdb, model: string): Promise<CustomFieldDef[]> {
      if (!cache || Date.now() - cache.at > TTL_MS) {
        const res = await sql<CustomFieldDef>`select id, name, label, type, object_type, content_types, required,
            filter_logic, "default", validation_minimum, validation_maximum, validation_regex, choices, weight
          from extras_customfield order by weight, name`.execute(q);
        const byModel = new Map<string, CustomFieldDef[]>();
        for (const cf of res.rows) {
          for (const ct of cf.content_types) {
            const list = byModel.get(ct) ?? [];
            list.push(cf);
            byModel.set(ct, list);
          }
        }
        cache = { at: Date.now(), byModel };
      }
      return cache.byModel.get(model) ?? [];
    },
    invalidate() {
      cache = null;
    },
  };
}
