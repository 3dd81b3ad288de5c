/**
 * Virtual circuit terminations (NetBox 4.2, fields as in 4.4): a virtual interface of a device
 * taking part in a virtual circuit as its peer, hub or spoke. An interface terminates at most one
 * virtual circuit. Served in the 4.4 dialect only.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { viaPair } from '../../core/query/filter-blocks.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { VIRTUAL_INTERFACE_TYPES } from '../dcim/choices.js';
import { description, fk } from '../fields.js';
import { VirtualCircuitTerminationRole } from './choices.js';
import { accountFilter } from './virtual-circuit.model.js';

/** NetBox 4.2 searches the virtual circuit's cid and the description */
const searchFilter: CustomFilter = {
  async build(values, _lookup, { alias }) {
    const q = searchTerm(values);
    if (!q) return null;
    const pattern = `%${likeEscape(q)}%`;
    const op = likeFor(q);
    return sql`(${sql.ref(`${alias}.description`)} ${op} ${pattern} or ${sql.ref(`${alias}.virtual_circuit_id`)} in
      (select id from circuits_virtualcircuit where cid ${op} ${pattern}))`;
  },
};

const roleLabel = (row: Row) => VirtualCircuitTerminationRole.labels.get(row.role as string) ?? String(row.role);

export const virtualCircuitTermination = defineModel({
  name: 'circuits.virtualcircuittermination',
  path: 'virtual-circuit-terminations',
  verboseName: 'virtual circuit termination',
  dialect: '4.4',
  fields: {
    virtual_circuit: fk('circuits.virtualcircuit', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      relatedName: 'terminations',
    }),
    role: { kind: 'choice', choices: VirtualCircuitTerminationRole, default: 'peer' },
    interface: fk('dcim.interface', { required: true, nullable: false, onDelete: 'cascade', unique: true }),
    description: description(),
  },
  filters: {
    ...viaPair('provider', ['virtual_circuit', 'provider_network', 'provider']),
    provider_account_id: relatedFilter(['virtual_circuit', 'provider_account'], { byId: true }),
    provider_account: accountFilter(
      (ids, alias) =>
        sql`${sql.ref(`${alias}.virtual_circuit_id`)} in (select id from circuits_virtualcircuit where provider_account_id in ${ids})`,
    ),
    provider_network_id: relatedFilter(['virtual_circuit', 'provider_network'], { byId: true }),
    q: searchFilter,
  },
  relatedObject: 'virtual_circuit',
  hooks: {
    async validate({ rc, data }) {
      // NetBox 4.2 VirtualCircuitTermination.clean()
      const res = await sql<Row>`select type from dcim_interface where id = ${Number(data.interface_id)}`.execute(rc.q);
      const type = res.rows[0]?.type;
      if (type !== undefined && !VIRTUAL_INTERFACE_TYPES.has(String(type)))
        return { __all__: ['Virtual circuits may be terminated only to virtual interfaces.'] };
    },
    async represent(rc, rows, out) {
      // NetBox: "<cid>: <Role> termination", the circuits' cids read once per page
      const circuits = await fetchRowsById(rc, rc.app.registry.get('circuits.virtualcircuit'), [
        ...new Set(rows.map((r) => Number(r.virtual_circuit_id))),
      ]);
      const cids = new Map(circuits.map((c) => [Number(c.id), String(c.cid)]));
      rows.forEach((r, i) => {
        const cid = cids.get(Number(r.virtual_circuit_id));
        if (cid !== undefined && 'display' in out[i]!) out[i]!.display = `${cid}: ${roleLabel(r)} termination`;
      });
    },
  },
  // without the circuit's cid at hand (change log); the API's forms name it (represent above)
  display: (row) => `Virtual circuit ${row.virtual_circuit_id}: ${roleLabel(row)} termination`,
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { virtual_circuit: 'cid', interface: 'id' },
    columns: ['virtual_circuit', 'role', 'interface', 'description'],
    groups: [{ title: 'Virtual Circuit Termination', fields: ['virtual_circuit', 'role', 'interface', 'description'] }],
  },
  brief: ['virtual_circuit', 'role', 'interface', 'description'],
  ordering: ['virtual_circuit', 'role', 'id'],
  search: ['description'],
});
