/**
 * Filters of circuits and providers that reach through the circuit terminations: `site`,
 * `region`, `site_group` and `provider_network` (NetBox 3.4 CircuitFilterSet / ProviderFilterSet,
 * which filter on `terminations__site…` and `circuits__terminations__site…`).
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import type { Cond } from '../../core/query/lookups.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

/** which terminations a filter value set selects, as a condition on `ct` */
const BY_TARGET: Record<string, { target: string; where: (ids: Cond) => Cond }> = {
  site: { target: 'dcim.site', where: (ids) => sql`ct.site_id in ${ids}` },
  region: {
    target: 'dcim.region',
    where: (ids) => sql`ct.site_id in (select s.id from dcim_site s where s.region_id in ${ids})`,
  },
  site_group: {
    target: 'dcim.sitegroup',
    where: (ids) => sql`ct.site_id in (select s.id from dcim_site s where s.group_id in ${ids})`,
  },
  provider_network: { target: 'circuits.providernetwork', where: (ids) => sql`ct.provider_network_id in ${ids}` },
};

/** circuits with a termination matching the values */
function circuitsMatching(where: Cond): Cond {
  return sql`t.id in (select ct.circuit_id from circuits_circuittermination ct where ${where})`;
}

/** the `<name>` and `<name>_id` filters for each named relation; `of` says what is listed */
export function terminationFilters(names: string[], of: 'circuit' | 'provider'): Record<string, CustomFilter> {
  const out: Record<string, CustomFilter> = {};
  for (const name of names) {
    const { target, where } = BY_TARGET[name]!;
    const match = (ids: Cond) =>
      of === 'circuit'
        ? circuitsMatching(where(ids))
        : sql`t.id in (select c.provider_id from circuits_circuit c join circuits_circuittermination ct on ct.circuit_id = c.id
            where ${where(ids)})`;
    // provider networks have no slug; NetBox offers only the id form for them
    if (name !== 'provider_network') out[name] = idSetFilter({ param: name, target, match });
    out[`${name}_id`] = idSetFilter({ param: `${name}_id`, target, byId: true, match });
  }
  return out;
}
