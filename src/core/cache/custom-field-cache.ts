/**
 * Custom field definitions, cached per process: every read and write of a model with custom
 * fields needs them, and they change rarely. One entry holds them all, grouped by model, under the
 * version of the request that loaded them (cache-version.ts).
 */
import { sql } from 'kysely';
import type { CustomFieldDef, RequestContext } from '../context.js';
import { cacheVersion } from './cache-version.js';
import { createVersionedCache } from './versioned-cache.js';

export type CustomFieldsOf = (rc: RequestContext, model: string) => Promise<CustomFieldDef[]>;

export function createCustomFieldCache(): CustomFieldsOf {
  const cache = createVersionedCache<Map<string, CustomFieldDef[]>>({ max: 1 });
  return async (rc, model) => {
    const byModel = await cache.through('all', cacheVersion(rc), async () => {
      const res = await sql<CustomFieldDef>`select id, name, label, type, object_type, content_types, required,
          filter_logic, "default", validation_minimum, validation_maximum, validation_regex, choices, weight
        from extras_customfield order by weight, name`.execute(rc.q);
      const out = new Map<string, CustomFieldDef[]>();
      for (const cf of res.rows) {
        for (const ct of cf.content_types) {
          const list = out.get(ct) ?? [];
          list.push(cf);
          out.set(ct, list);
        }
      }
      return out;
    });
    return byModel.get(model) ?? [];
  };
}
