/**
 * The `contact`, `contact_role` and `contact_group` filters of every model that can have contacts
 * assigned (NetBox ContactModelFilterSet; filter list in reference netbox-filters.md). All three
 * take ids; `contact_group` includes the groups below the named ones. Any model can spread
 * `...contactFilters()` into its `filters`; the model's identity comes from the filter context.
 */
import { sql } from 'kysely';
import type { CustomFilter, FilterBuildContext } from '../../core/model/types.js';
import type { Cond } from '../../core/query/lookups.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

function assigned(where: Cond, ctx: FilterBuildContext): Cond {
  return sql`${sql.ref(`${ctx.alias}.id`)} in (select ca.object_id from tenancy_contactassignment ca
    where ca.content_type = ${ctx.model.name} and ${where})`;
}

export function contactFilters(): Record<string, CustomFilter> {
  return {
    contact: idSetFilter({
      param: 'contact',
      target: 'tenancy.contact',
      byId: true,
      match: (ids, ctx) => assigned(sql`ca.contact_id in ${ids}`, ctx),
    }),
    contact_role: idSetFilter({
      param: 'contact_role',
      target: 'tenancy.contactrole',
      byId: true,
      match: (ids, ctx) => assigned(sql`ca.role_id in ${ids}`, ctx),
    }),
    contact_group: idSetFilter({
      param: 'contact_group',
      target: 'tenancy.contactgroup',
      byId: true,
      match: (ids, ctx) =>
        // NetBox 4.3: a contact in any of the groups (contact-groups.ts)
        assigned(
          sql`ca.contact_id in (select cg.contact_id from tenancy_contact_groups cg where cg.contactgroup_id in ${ids})`,
          ctx,
        ),
    }),
  };
}
