/**
 * Filters that reach through foreign keys, such as a site's `tenant_group` (its tenant's group) or
 * a device's `region`: `relatedFilter(['tenant', 'group'])` gives the `<name>` (natural key) form,
 * `relatedFilter(['tenant', 'group'], { byId: true })` the `<name>_id` form. Tree targets include
 * descendants, as NetBox's TreeNodeMultipleChoiceFilter does.
 */
import { sql } from 'kysely';
import type { CustomFilter, ModelDef } from '../model/types.js';
import { descendantsSql } from '../represent/load-related.js';
import type { Cond } from './lookups.js';
import { namedIds } from './named-ids.js';

export function relatedFilter(path: string[], opts: { byId?: boolean } = {}): CustomFilter {
  return {
    lookups: ['n'],
    type: opts.byId ? 'integer' : 'string',
    async build(values, lookup, { rc, model, alias }) {
      // walk the path to the final model
      const hops: Array<{ model: ModelDef; key: string }> = [];
      let m = model;
      for (const key of path) {
        const f = m.fields[key];
        if (f?.kind !== 'fk')
          throw new Error(`${model.name}: relatedFilter path ${path.join('.')} is not a chain of fks`);
        hops.push({ model: m, key });
        m = rc.app.registry.get(f.to!);
      }
      const target = m;
      const param = path.join('_') + (opts.byId ? '_id' : '');
      const column = opts.byId ? 'id' : (target.naturalKey ?? 'id');
      const raw = values.filter((v) => v !== 'null');
      const ids = raw.length ? await namedIds(rc, param, target.table, column, raw) : [];
      let inner: Cond = target.treeParent
        ? descendantsSql(target, sql`select unnest(${ids}::bigint[])`)
        : sql`(select unnest(${ids}::bigint[]))`;
      // build from the last hop back to the model: x_id in (select id from hop where y_id in (...))
      for (let i = hops.length - 1; i >= 1; i--) {
        const h = hops[i]!;
        inner = sql`(select id from ${sql.table(h.model.table)} where ${sql.ref(`${h.key}_id`)} in ${inner})`;
      }
      const first = sql.ref(`${alias}.${hops[0]!.key}_id`);
      const wantNull = values.includes('null');
      const cond = ids.length
        ? wantNull
          ? sql`(${first} in ${inner} or ${first} is null)`
          : sql`${first} in ${inner}`
        : wantNull
          ? sql`${first} is null`
          : sql`false`;
      return lookup === 'n' ? sql`not coalesce(${cond}, false)` : cond;
    },
  };
}
