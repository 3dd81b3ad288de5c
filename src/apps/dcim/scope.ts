/**
 * A scope (NetBox 4.2 CachedScopeMixin): a generic relation to a region, site group, site or
 * location, shown in the 4.4 dialect on prefixes, clusters and wireless LANs. Prefixes and clusters
 * keep NetBox 3.4's `site` beside it, as the site the scope is in (its `_site` cache: the site, or
 * a location's site; none for a region or site group), so 3.4 reads are as before and lose only
 * what 3.4 cannot say (docs: netbox-4-delta 1.4, lossy).
 *
 * Writes take either shape in both dialects: a scope sets `site` to the site it is in; a `site`
 * that differs from the stored one sets the scope to that site (the same site written back, as a
 * 3.4 PUT does, leaves a location or region scope alone). When both are sent the scope wins.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import type { Cond } from '../../core/query/lookups.js';

/** NetBox 4.4 dcim.constants LOCATION_SCOPE_TYPES */
const SCOPE_TYPES = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location'];

/** scope_type, scope_id and the read-only scope, shown in 4.4 (NetBox's order: together, where 3.4 had site) */
export function scopeFields(): Record<string, FieldDef> {
  return {
    scope_type: { kind: 'contenttype', nullable: true, types: SCOPE_TYPES, dialect: '4.4' },
    scope_id: { kind: 'integer', nullable: true, min: 0, dialect: '4.4' },
    // NetBox 4.4 cascades a scope's deletion (GenericRelation); a 3.4 client never asked for that:
    // the object loses its scope instead (its site, if any, protects it as in 3.4)
    scope: { kind: 'generic', generic: { type: 'scope_type', id: 'scope_id' }, onDelete: 'set_null', dialect: '4.4' },
  };
}

const changed = (a: unknown, b: unknown) => (a == null ? null : Number(a)) !== (b == null ? null : Number(b));

/** the site a scope is in: the site, a location's site, none for a region or site group (or another type) */
export async function siteOfScope(rc: RequestContext, type: unknown, id: unknown): Promise<number | null> {
  if (id == null) return null;
  if (type === 'dcim.site') return Number(id);
  if (type !== 'dcim.location') return null;
  const res = await sql<{ site_id: number }>`select site_id from dcim_location where id = ${Number(id)}`.execute(rc.q);
  return res.rows[0] ? Number(res.rows[0].site_id) : null;
}

/**
 * Puts the scope and the site of `data` in step (module comment), from what was sent and the
 * stored row. `data` is changed in place: the validate hook's merged object, or the values the
 * prepare hook stores. `withSite`: the model keeps a 3.4 `site` column.
 */
export async function syncScope(
  rc: RequestContext,
  data: Row,
  before: Row | null,
  sent: ReadonlySet<string>,
  withSite: boolean,
): Promise<void> {
  if (!withSite) return;
  const merged = { ...(before ?? {}), ...data };
  if (sent.has('scope_type') || sent.has('scope_id')) {
    data.site_id = await siteOfScope(rc, merged.scope_type, merged.scope_id);
  } else if (sent.has('site') && (!before || changed(before.site_id, merged.site_id))) {
    data.scope_type = merged.site_id == null ? null : 'dcim.site';
    data.scope_id = merged.site_id ?? null;
  }
}

const TARGETS = {
  region: 'dcim.region',
  site_group: 'dcim.sitegroup',
  site: 'dcim.site',
  location: 'dcim.location',
} as const;
type Level = keyof typeof TARGETS;

/** the columns of a relation to a place: a scope's, or a circuit termination's */
export interface PlaceColumns {
  type: string;
  id: string;
}
const SCOPE: PlaceColumns = { type: 'scope_type', id: 'scope_id' };

/** the objects whose place (`on`) is one of `ids` of the level's model, or inside one of them */
function within(alias: string, on: PlaceColumns, level: Level, ids: Cond): Cond {
  const type = sql.ref(`${alias}.${on.type}`);
  const id = sql.ref(`${alias}.${on.id}`);
  const column = level === 'region' ? 'region_id' : 'group_id';
  if (level === 'location') return sql`(${type} = 'dcim.location' and ${id} in ${ids})`;
  if (level === 'site')
    return sql`((${type} = 'dcim.site' and ${id} in ${ids})
      or (${type} = 'dcim.location' and ${id} in (select l.id from dcim_location l where l.site_id in ${ids})))`;
  const own = level === 'region' ? 'dcim.region' : 'dcim.sitegroup';
  const sites = sql`(select s.id from dcim_site s where ${sql.ref(`s.${column}`)} in ${ids})`;
  return sql`((${type} = ${own} and ${id} in ${ids})
    or (${type} = 'dcim.site' and ${id} in ${sites})
    or (${type} = 'dcim.location' and ${id} in (select l.id from dcim_location l where l.site_id in ${sites})))`;
}

/**
 * NetBox 4.4 ScopedFilterSet: region, site_group, site and location by slug and by id (a tree's
 * descendants included), each matching objects scoped to it or to anything inside it. `levels`:
 * the ones to declare (a model with a stored `site` keeps its own `site` filters, which match alike);
 * `on`: the relation's columns (a circuit termination's termination_type / termination_id).
 */
export function scopeFilters(
  levels: ReadonlyArray<Level> = ['region', 'site_group', 'site', 'location'],
  on: PlaceColumns = SCOPE,
): Record<string, CustomFilter> {
  const out: Record<string, CustomFilter> = {};
  for (const level of levels) {
    const target = TARGETS[level];
    const match = (ids: Cond, { alias }: { alias: string }) => within(alias, on, level, ids);
    out[level] = idSetFilter({ param: level, target, match });
    out[`${level}_id`] = idSetFilter({ param: `${level}_id`, target, byId: true, match });
  }
  return out;
}
