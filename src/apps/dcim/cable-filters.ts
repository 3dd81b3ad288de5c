/**
 * The cable list's filters that look through its terminations (NetBox 3.4/3.7 CableFilterSet):
 * `device`, `rack`, `location`, `site` (and `_id` forms) match a cable with ANY termination on
 * such an object - a device component's device, a power feed's rack, a circuit termination's site,
 * as NetBox caches them on CableTermination; `<model>_id` names terminated objects of one kind;
 * `termination_a_type/_id`, `termination_b_type/_id` and `unterminated` look at the ends.
 */
import { type RawBuilder, sql } from 'kysely';
import type { CustomFilter, FilterBuildContext } from '../../core/model/types.js';
import { Errors } from '../../core/errors.js';
import { TERMINATION_TYPES } from './cabling.js';
import { booleanFilter, parseIds } from '../../core/query/filter-blocks.js';

type Scope = 'device' | 'rack' | 'location' | 'site';
type Cond = RawBuilder<unknown>;

/** one row per termination: cable_id, device_id, rack_id, location_id, site_id (null where unknown) */
function scopesOf(ctx: FilterBuildContext): Cond {
  const parts: Cond[] = [];
  for (const [type, table] of Object.entries(TERMINATION_TYPES)) {
    const m = ctx.rc.app.registry.find(type);
    if (!m) continue;
    const from = sql`dcim_cabletermination ct join ${sql.table(table)} x on ct.termination_type = ${type} and x.id = ct.termination_id`;
    if (m.fields.device) {
      parts.push(
        sql`select ct.cable_id, d.id as device_id, d.rack_id, d.location_id, d.site_id from ${from} join dcim_device d on d.id = x.device_id`,
      );
    } else if (m.fields.rack) {
      parts.push(
        sql`select ct.cable_id, null::bigint, r.id, r.location_id, r.site_id from ${from} join dcim_rack r on r.id = x.rack_id`,
      );
    } else if (m.fields.site) {
      parts.push(sql`select ct.cable_id, null::bigint, null::bigint, null::bigint, x.site_id from ${from}`);
    }
  }
  return sql`(${sql.join(parts, sql` union all `)})`;
}

const NAME_OF: Record<Scope, { table: string; column: string }> = {
  device: { table: 'dcim_device', column: 'name' },
  rack: { table: 'dcim_rack', column: 'name' },
  location: { table: 'dcim_location', column: 'name' },
  site: { table: 'dcim_site', column: 'slug' },
};

/** `<scope>_id` (ids) or `<scope>` (device, rack and location by name, site by slug) */
function byScope(scope: Scope, byId: boolean): CustomFilter {
  return {
    type: byId ? 'integer' : 'string',
    async build(values, _lookup, ctx) {
      const col = sql.ref(`s.${scope}_id`);
      const { table, column } = NAME_OF[scope];
      const match = byId
        ? sql`${col} = any(${parseIds(ctx.param, values)}::bigint[])`
        : sql`${col} in (select id from ${sql.table(table)} where ${sql.ref(column)} = any(${values}::text[]))`;
      return sql`${sql.ref(`${ctx.alias}.id`)} in (select s.cable_id from ${scopesOf(ctx)} as s (cable_id, device_id, rack_id, location_id, site_id) where ${match})`;
    },
  };
}

/** `<model>_id`: cables ending on these objects of one kind (NetBox 3.7 filter_by_termination_object) */
function byObject(type: string): CustomFilter {
  return {
    type: 'integer',
    async build(values, _lookup, { alias, param }) {
      return sql`${sql.ref(`${alias}.id`)} in (select cable_id from dcim_cabletermination
        where termination_type = ${type} and termination_id = any(${parseIds(param, values)}::bigint[]))`;
    },
  };
}

/** termination_<end>_type ("app.model", `__n` too) and termination_<end>_id */
function endFilters(end: 'A' | 'B'): Record<string, CustomFilter> {
  const e = end.toLowerCase();
  const on = (alias: string, where: Cond) =>
    sql`${sql.ref(`${alias}.id`)} in (select cable_id from dcim_cabletermination where cable_end = ${end} and ${where})`;
  return {
    [`termination_${e}_type`]: {
      type: 'string',
      lookups: ['n'],
      async build(values, lookup, { alias, param }) {
        const bad = values.find((v) => !/^[a-z_]+\.[a-z_]+$/.test(v));
        if (bad !== undefined)
          throw Errors.invalidFilter(param, `Invalid value. Specify a content type as '<app_label>.<model_name>'.`);
        const cond = on(alias, sql`termination_type = any(${values}::text[])`);
        return lookup === 'n' ? sql`not (${cond})` : cond;
      },
    },
    [`termination_${e}_id`]: {
      type: 'integer',
      async build(values, _lookup, { alias, param }) {
        return on(alias, sql`termination_id = any(${parseIds(param, values)}::bigint[])`);
      },
    },
  };
}

const OBJECT_KINDS = [
  'circuits.circuittermination',
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.frontport',
  'dcim.interface',
  'dcim.powerfeed',
  'dcim.poweroutlet',
  'dcim.powerport',
  'dcim.rearport',
];

export function cableFilters(): Record<string, CustomFilter> {
  const out: Record<string, CustomFilter> = {};
  for (const scope of ['device', 'rack', 'location', 'site'] as Scope[]) {
    out[scope] = byScope(scope, false);
    out[`${scope}_id`] = byScope(scope, true);
  }
  for (const type of OBJECT_KINDS) out[`${type.split('.')[1]}_id`] = byObject(type);
  Object.assign(out, endFilters('A'), endFilters('B'));
  // NetBox 3.7: a cable missing its A or its B end
  out.unterminated = booleanFilter(
    (
      t,
    ) => sql`not (exists (select 1 from dcim_cabletermination x where x.cable_id = ${sql.ref(`${t}.id`)} and x.cable_end = 'A')
    and exists (select 1 from dcim_cabletermination x where x.cable_id = ${sql.ref(`${t}.id`)} and x.cable_end = 'B'))`,
  );
  return out;
}
