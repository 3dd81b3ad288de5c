/**
 * Filters over a many-to-many field of the users app: a user's `group`/`group_id`, a permission's
 * `user`/`user_id`/`group`/`group_id` (reference: netbox-filters, /api/users/*). Repeated values
 * OR; `__n` excludes. Unknown values are a 400, as NetBox's ModelMultipleChoiceFilter answers.
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { namedIds } from '../../core/query/named-ids.js';

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
      const ids = await namedIds(rc, param, target.table, column, values);
      const cond = sql`${sql.ref(`${alias}.id`)} in (select ${sql.ref(t.from)} from ${sql.table(t.table)}
        where ${sql.ref(t.to)} = any(${ids}::bigint[]))`;
      return lookup === 'n' ? sql`not ${cond}` : cond;
    },
  };
}
