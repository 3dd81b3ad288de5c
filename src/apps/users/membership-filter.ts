/**
 * Filters over a many-to-many field of the users app: a user's `group`/`group_id`, a permission's
 * `user`/`user_id`/`group`/`group_id` (reference: netbox-filters, /api/users/*). Repeated values
 * OR; `__n` excludes. Unknown values are a 400, as NetBox's ModelMultipleChoiceFilter answers.
 */
import { sql } from 'kysely';
import { Errors } from '../../core/errors.js';
import type { CustomFilter } from '../../core/model/types.js';
import { parseFilterValue } from '../../core/query/parse-value.js';

/** `field` is the m2m field on the filtered model; `column` the target column the values name (`id`, `name`, `username`). */
export function membershipFilter(field: string, column: string): CustomFilter {
  const param = column === 'id' ? `${field.replace(/s$/, '')}_id` : field.replace(/s$/, '');
  return {
    lookups: ['n'],
    type: column === 'id' ? 'integer' : 'string',
    async build(values, lookup, { rc, model, alias }) {
      const f = model.fields[field]!;
      const target = rc.app.registry.get(f.to!);
      const t = f.through!;
      const keys = column === 'id' ? values.map((v) => String(parseFilterValue(param, 'id', v))) : values;
      const found = await sql<{ id: number; k: string }>`select id, ${sql.ref(column)}::text as k
        from ${sql.table(target.table)} where ${sql.ref(column)}::text = any(${keys})`.execute(rc.q);
      const have = new Set(found.rows.map((r) => r.k));
      const missing = keys.find((k) => !have.has(k));
      if (missing !== undefined) throw Errors.invalidFilter(param, `Select a valid choice. ${missing} is not one of the available choices.`);
      const cond = sql`${sql.ref(`${alias}.id`)} in (select ${sql.ref(t.from)} from ${sql.table(t.table)}
        where ${sql.ref(t.to)} = any(${found.rows.map((r) => Number(r.id))}::bigint[]))`;
      return lookup === 'n' ? sql`not ${cond}` : cond;
    },
  };
}
