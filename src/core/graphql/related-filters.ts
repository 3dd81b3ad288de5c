/**
 * Filters on a related object's fields, NetBox 4.4's form (strawberry-django): in the 4.4 schema a
 * foreign key's filter is the related model's own filter input type, so
 * `device_list(filters: {site: {name: {exact: "x"}, tenant: {slug: {i_contains: "y"}}}})` reads
 * the site's filters, and the tenant's within them, with their own AND/OR/NOT. The types refer to
 * each other by name (`DeviceFilter.site: SiteFilter`), so the schema stays finite however deep a
 * query nests; a query's nesting is bounded by GRAPHQL_MAX_DEPTH (limits.ts).
 *
 * Each related filter compiles to `t.<fk>_id in (select t.id from <related table> as t where ...)`
 * (loads.ts), the related model's conditions built by the same REST filters: one statement for the
 * whole list, whatever its nesting. 3.4's schema keeps its scalar filters (`site: "slug"`).
 */
import type { Dialect } from '../model/dialect.js';
import { servedIn, shownIn, wireName } from '../model/dialect.js';
import type { Registry } from '../model/registry.js';
import type { ModelDef } from '../model/types.js';

export interface RelatedFilter {
  /** the foreign key's field key (its column is `<key>_id`) */
  key: string;
  /** the model it points at */
  target: ModelDef;
}

const made = new WeakMap<ModelDef, Map<string, RelatedFilter>>();

/**
 * A model's related-object filters in the 4.4 schema, by their 4.4 names: every foreign key the
 * dialect shows whose model it serves (a rack's `rack_type`, a device's `role` and `primary_ip4`).
 */
export function relatedFilters(registry: Registry, model: ModelDef, dialect: Dialect): Map<string, RelatedFilter> {
  if (dialect !== '4.4') return new Map();
  let out = made.get(model);
  if (out) return out;
  out = new Map();
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind !== 'fk' || f.noFilter || f.writeOnly || !f.to || !shownIn(model, key, f, dialect)) continue;
    const target = registry.find(f.to);
    if (target && servedIn(target, dialect)) out.set(wireName(model, key, dialect), { key, target });
  }
  made.set(model, out);
  return out;
}
