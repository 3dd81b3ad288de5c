/**
 * Circuit group assignments (NetBox 4.1, in 4.2's shape): a circuit or a virtual circuit (the
 * generic `member`) in a group, at an optional priority. Served in the 4.4 dialect only. Deleting
 * the group or the member deletes the assignment (generic relations cascade in the engine).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { fk } from '../fields.js';
import { CircuitPriority } from './choices.js';

const MEMBER_TYPES = ['circuits.circuit', 'circuits.virtualcircuit'];

/** NetBox 4.2 `circuit`/`virtual_circuit` (by cid) and their `_id` forms: members of that type */
function memberFilter(param: string, type: string, byId: boolean): CustomFilter {
  return idSetFilter({
    param,
    target: type,
    byId,
    key: 'cid',
    match: (ids, { alias }) =>
      sql`(${sql.ref(`${alias}.member_type`)} = ${type} and ${sql.ref(`${alias}.member_id`)} in ${ids})`,
  });
}

/** NetBox 4.2 `provider`/`provider_id`: members whose provider (a virtual circuit's: its network's) it is */
function providerFilter(param: string, byId: boolean): CustomFilter {
  return idSetFilter({
    param,
    target: 'circuits.provider',
    byId,
    match: (ids, { alias }) => {
      const type = sql.ref(`${alias}.member_type`);
      const id = sql.ref(`${alias}.member_id`);
      return sql`((${type} = 'circuits.circuit' and ${id} in (select id from circuits_circuit where provider_id in ${ids}))
        or (${type} = 'circuits.virtualcircuit' and ${id} in (select v.id from circuits_virtualcircuit v
          join circuits_providernetwork n on n.id = v.provider_network_id where n.provider_id in ${ids})))`;
    },
  });
}

/** NetBox 4.2 searches the member's cid and the group's name */
const searchFilter: CustomFilter = {
  async build(values, _lookup, { alias }) {
    const q = searchTerm(values);
    if (!q) return null;
    const pattern = `%${likeEscape(q)}%`;
    const op = likeFor(q);
    const type = sql.ref(`${alias}.member_type`);
    const id = sql.ref(`${alias}.member_id`);
    return sql`(${sql.ref(`${alias}.group_id`)} in (select id from circuits_circuitgroup where name ${op} ${pattern})
      or (${type} = 'circuits.circuit' and ${id} in (select id from circuits_circuit where cid ${op} ${pattern}))
      or (${type} = 'circuits.virtualcircuit' and ${id} in (select id from circuits_virtualcircuit where cid ${op} ${pattern})))`;
  },
};

const displayOf = (group: string, row: Row) =>
  row.priority ? `${group} (${CircuitPriority.labels.get(row.priority as string) ?? row.priority})` : group;

export const circuitGroupAssignment = defineModel({
  name: 'circuits.circuitgroupassignment',
  path: 'circuit-group-assignments',
  verboseName: 'circuit group assignment',
  dialect: '4.4',
  fields: {
    group: fk('circuits.circuitgroup', { required: true, nullable: false, onDelete: 'cascade' }),
    member_type: { kind: 'contenttype', required: true, types: MEMBER_TYPES },
    member_id: { kind: 'integer', required: true, min: 0, label: 'member ID' },
    member: { kind: 'generic', generic: { type: 'member_type', id: 'member_id' } },
    priority: { kind: 'choice', choices: CircuitPriority, blank: true },
  },
  customFields: false,
  uniqueTogether: [{ fields: ['member_type', 'member_id', 'group'] }],
  filters: {
    circuit: memberFilter('circuit', 'circuits.circuit', false),
    circuit_id: memberFilter('circuit_id', 'circuits.circuit', true),
    virtual_circuit: memberFilter('virtual_circuit', 'circuits.virtualcircuit', false),
    virtual_circuit_id: memberFilter('virtual_circuit_id', 'circuits.virtualcircuit', true),
    provider: providerFilter('provider', false),
    provider_id: providerFilter('provider_id', true),
    q: searchFilter,
  },
  relatedObject: 'group',
  // without the group's name at hand (change log); the API's forms name it (represent below)
  display: (row) => displayOf(`Circuit group ${row.group_id}`, row),
  hooks: {
    async represent(rc, rows, out) {
      // NetBox: "<group>" or "<group> (<Priority>)", the groups' names read once per page
      const groups = await fetchRowsById(rc, rc.app.registry.get('circuits.circuitgroup'), [
        ...new Set(rows.map((r) => Number(r.group_id))),
      ]);
      const names = new Map(groups.map((g) => [Number(g.id), String(g.name)]));
      rows.forEach((r, i) => {
        const name = names.get(Number(r.group_id));
        if (name !== undefined && 'display' in out[i]!) out[i]!.display = displayOf(name, r);
      });
    },
  },
  ui: {
    columns: ['group', 'member_type', 'member', 'priority'],
    groups: [{ title: 'Group Assignment', fields: ['group', 'member_type', 'member_id', 'priority'] }],
  },
  brief: ['group', 'member_type', 'member_id', 'member', 'priority'],
  ordering: ['group', 'member_type', 'member_id', 'priority', 'id'],
  search: [],
});
