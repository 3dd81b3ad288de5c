/**
 * A contact's groups (NetBox 4.3, #17170: a contact belongs to any number of groups). 4.4 shows and
 * takes the list `groups`; 3.4 shows `group`, the first of them (the lowest id, the first 4.4
 * lists), and writing `group` sets the list to that one group. The `group_id` column keeps that
 * first group, so 3.4's reads and its (group, name) uniqueness read it as they always did.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import type { Cond } from '../../core/query/lookups.js';

export const CONTACT_GROUPS = { table: 'tenancy_contact_groups', from: 'contact_id', to: 'contactgroup_id' };

export const groupsField: FieldDef = {
  kind: 'm2m',
  to: 'tenancy.contactgroup',
  through: CONTACT_GROUPS,
  dialect: '4.4',
};

/** the first group of a list of group ids, as group_id keeps it */
const firstOf = (ids: number[]): number | null => (ids.length ? Math.min(...ids) : null);

/**
 * Keeps the two forms of a write in step (the prepare hook): written groups set group_id to the
 * first of them; a written `group` alone (3.4) makes the list that one group, unless it is the
 * stored first group written back (a 3.4 PUT of what it read keeps the other groups).
 */
export function syncContactGroups(data: Row, before: Row | null, sent: Set<string>, m2m: Map<string, number[]>): void {
  if (sent.has('groups')) data.group_id = firstOf(m2m.get('groups') ?? []);
  else if (sent.has('group')) {
    const group = data.group_id == null ? null : Number(data.group_id);
    if (before && group === (before.group_id == null ? null : Number(before.group_id))) return;
    m2m.set('groups', group == null ? [] : [group]);
  }
}

/**
 * The first group a write leaves the contact in, from the data the validate hook sees (`groups` as
 * ids beside the columns): a written list's first, else `group_id`.
 */
export function firstGroupOf(data: Row, sent?: Set<string>): number | null {
  const groups = (data.groups as number[] | undefined) ?? [];
  if (sent?.has('groups') || groups.length) return firstOf(groups);
  return data.group_id == null ? null : Number(data.group_id);
}

/**
 * NetBox 4.3 `group` / `group_id`: contacts in any of the named groups or the groups below them, in
 * both dialects; `null` matches contacts in no group.
 */
export function contactGroupFilter(byId: boolean): CustomFilter {
  const param = byId ? 'group_id' : 'group';
  const inGroups = (ids: Cond, alias: string) =>
    sql`${sql.ref(`${alias}.id`)} in (select cg.contact_id from tenancy_contact_groups cg where cg.contactgroup_id in ${ids})`;
  const named = idSetFilter({
    param,
    target: 'tenancy.contactgroup',
    byId,
    match: (ids, ctx) => inGroups(ids, ctx.alias),
  });
  return {
    ...named,
    async build(values, lookup, ctx) {
      const inNone = values.includes('null')
        ? sql`not exists (select 1 from tenancy_contact_groups cg where cg.contact_id = ${sql.ref(`${ctx.alias}.id`)})`
        : null;
      const cond = await named.build(values, 'exact', ctx);
      const either = cond && inNone ? sql`(${cond} or ${inNone})` : (cond ?? inNone);
      return either && lookup === 'n' ? sql`not (${either})` : either;
    },
  };
}

/**
 * After groups are deleted: the database cleared group_id of the contacts whose first group went
 * (set null, as Django's SET_NULL, without a change record); those still in other groups take the
 * first of them.
 */
export async function refreshFirstGroups(rc: RequestContext): Promise<void> {
  await sql`update tenancy_contact c set group_id = (select min(cg.contactgroup_id) from tenancy_contact_groups cg
      where cg.contact_id = c.id)
    where c.group_id is null and exists (select 1 from tenancy_contact_groups cg where cg.contact_id = c.id)`.execute(
    rc.q,
  );
}
