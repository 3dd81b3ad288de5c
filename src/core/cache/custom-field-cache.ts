/**
 * Custom field definitions, cached per process: every read and write of a model with custom
 * fields needs them, and they change rarely. One entry holds them all, grouped by model, under the
 * version of the request that loaded them (cache-version.ts).
 */
import { sql } from 'kysely';
import type { CustomFieldDef, RequestContext } from '../context.js';
import { cacheVersion } from './cache-version.js';
import { createVersionedCache } from './versioned-cache.js';

/** what the definitions are read from: only writes to these end the entry (db/table-generations.ts) */
const CUSTOM_FIELD_TABLES = ['extras_customfield', 'extras_customfieldchoiceset'];

/** A model's custom field definitions; `all` gives every model's (a write's preload: write-preload.ts). */
export type CustomFieldsOf = ((rc: RequestContext, model: string) => Promise<CustomFieldDef[]>) & {
  all(rc: RequestContext): Promise<ReadonlyMap<string, CustomFieldDef[]>>;
};

export function createCustomFieldCache(): CustomFieldsOf {
  const cache = createVersionedCache<Map<string, CustomFieldDef[]>>({ max: 1 });
  const all = (rc: RequestContext): Promise<ReadonlyMap<string, CustomFieldDef[]>> => {
    const pre = rc.preloaded?.customFields;
    if (pre) return Promise.resolve(pre);
    return cache.through('all', cacheVersion(rc, CUSTOM_FIELD_TABLES), async () => {
      // a field's choices are its own (NetBox 3.4) or the values of its choice set (NetBox 3.6)
      const res =
        await sql<CustomFieldDef>`select cf.id, cf.name, cf.label, cf.type, cf.object_type, cf.content_types, cf.required,
          cf.filter_logic, cf."default", cf.validation_minimum, cf.validation_maximum, cf.validation_regex, cf.weight,
          cf."unique",
          case when cs.id is null then cf.choices else (select coalesce(array_agg(p.pair->>0 order by p.n), '{}')
            from jsonb_array_elements(coalesce(cs.extra_choices, '[]'::jsonb)) with ordinality as p(pair, n)) end as choices
        from extras_customfield cf left join extras_customfieldchoiceset cs on cs.id = cf.choice_set_id
        order by cf.weight, cf.name`.execute(rc.q);
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
  };
  return Object.assign(async (rc: RequestContext, model: string) => (await all(rc)).get(model) ?? [], { all });
}
