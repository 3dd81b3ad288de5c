/**
 * Filters on a related object's fields, NetBox 4.4's form (strawberry-django): in the 4.4 schema a
 * foreign key's filter is the related model's own filter input type, so
 * `device_list(filters: {site: {name: {exact: "x"}, tenant: {slug: {i_contains: "y"}}}})` reads
 * the site's filters, and the tenant's within them, with their own AND/OR/NOT. The types refer to
 * each other by name (`DeviceFilter.site: SiteFilter`), so the schema stays finite however deep a
 * query nests; a query's nesting is bounded by GRAPHQL_MAX_DEPTH (limits.ts).
 *
 * Many-to-many fields (`tagged_vlans`, `import_targets`) and tags (`tags: {slug: {exact: "x"}}`,
 * NetBox's TagsFilterMixin) are filtered the same way: any member matching.
 *
 * Each related filter compiles to `t.<fk>_id in (select t.id from <related table> as t where ...)`
 * (or `t.id in` the join table's rows pointing at those) (loads.ts), the related model's conditions
 * built by the same REST filters: one statement for the whole list, whatever its nesting. 3.4's
 * schema keeps its scalar filters (`site: "slug"`).
 */
import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../model/dialect.js';
import { hasIn, servedIn, shownIn, wireName } from '../model/dialect.js';
import type { Registry } from '../model/registry.js';
import type { ModelDef } from '../model/types.js';

type Sql = RawBuilder<unknown>;

export interface RelatedFilter {
  /** the model it points at */
  target: ModelDef;
  /** the condition on this model's row (`t`) that it points at one of `ids` (a subquery) */
  match: (ids: Sql) => Sql;
}

const made = new WeakMap<ModelDef, Map<string, RelatedFilter>>();

/**
 * A model's related-object filters in the 4.4 schema, by their 4.4 names: every foreign key and
 * many-to-many field the dialect shows whose model it serves (a rack's `rack_type`, a device's
 * `role` and `primary_ip4`, an interface's `tagged_vlans`), and `tags`.
 */
export function relatedFilters(registry: Registry, model: ModelDef, dialect: Dialect): Map<string, RelatedFilter> {
  if (dialect !== '4.4') return new Map();
  let out = made.get(model);
  if (out) return out;
  out = new Map();
  for (const [key, f] of Object.entries(model.fields)) {
    if ((f.kind !== 'fk' && f.kind !== 'm2m') || f.noFilter || f.writeOnly || !f.to) continue;
    const target = registry.find(f.to);
    if (!target || !servedIn(target, dialect) || !shownIn(model, key, f, dialect)) continue;
    const through = f.through;
    const match =
      f.kind === 'fk'
        ? (ids: Sql) => sql`${sql.ref(`t.${key}_id`)} in ${ids}`
        : through
          ? (ids: Sql) =>
              sql`t.id in (select ${sql.ref(`j.${through.from}`)} from ${sql.table(through.table)} as j where ${sql.ref(`j.${through.to}`)} in ${ids})`
          : null;
    if (match) out.set(wireName(model, key, dialect), { target, match });
  }
  const tag = registry.find('extras.tag');
  if (hasIn(model.tags, dialect) && tag && !model.fields.tags && !out.has('tags'))
    out.set('tags', {
      target: tag,
      match: (ids) =>
        sql`t.id in (select j.object_id from extras_taggeditem as j where j.content_type = ${sql.lit(model.name)} and j.tag_id in ${ids})`,
    });
  made.set(model, out);
  return out;
}
