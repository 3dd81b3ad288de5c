/**
 * MAC addresses as objects (NetBox 4.2, #4867), served in the 4.4 dialect only: an address,
 * optionally assigned to a device or VM interface (generic relation). An interface names one of
 * its MAC objects as its primary (`primary_mac_address`) and mirrors its address in `mac_address`,
 * which NetBox 3.4 readers and writers keep using (mac-address-sync.ts keeps the two in step).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { booleanFilter } from '../../core/query/filter-blocks.js';
import { namedIds } from '../../core/query/named-ids.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import type { Cond } from '../../core/query/lookups.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { comments, description } from '../fields.js';
import { MAC_OWNERS, mirrorMacObjects, unmirrorDeleted } from './mac-address-sync.js';

/** NetBox 4.4 MACADDRESS_ASSIGNMENT_MODELS */
const ASSIGNABLE = MAC_OWNERS.map((o) => o.type);

/** MAC objects on interfaces of the named owners (devices or VMs, by name or id; NetBox filter_device) */
function ownerFilter(param: string, owner: 'device' | 'vm', byId: boolean): CustomFilter {
  const o = MAC_OWNERS.find((x) => x.owner === owner)!;
  return {
    type: byId ? 'integer' : 'string',
    async build(values, _lookup, { rc, alias }) {
      const raw = values.filter((v) => v.trim() !== '');
      if (!raw.length) return null;
      // an unknown owner is a 400 naming the parameter (docs/api-differences.md, "Strict input"; NetBox matches nothing)
      const ownerIds = await namedIds(rc, param, o.ownerTable, byId ? 'id' : 'name', raw);
      // NetBox: a device's interfaces include its virtual chassis members' when it is the master (vc_interfaces)
      const interfaces =
        owner === 'device'
          ? sql`select i.id from dcim_interface i where i.device_id = any(${ownerIds}::bigint[])
              or i.device_id in (select m.id from dcim_device m join dcim_virtualchassis vc on vc.id = m.virtual_chassis_id
                where vc.master_id = any(${ownerIds}::bigint[]))`
          : sql`select i.id from ${sql.table(o.table)} i where ${sql.ref(`i.${o.ownerColumn}`)} = any(${ownerIds}::bigint[])`;
      return sql`(${sql.ref(`${alias}.assigned_object_type`)} = ${o.type} and ${sql.ref(`${alias}.assigned_object_id`)} in (${interfaces}))`;
    },
  };
}

/** `interface(_id)`, `vminterface(_id)`: MAC objects assigned to the named interfaces (unknown ones are a 400) */
function interfaceFilter(param: string, type: string, byId: boolean): CustomFilter {
  return idSetFilter({
    param,
    target: type,
    byId,
    key: byId ? undefined : 'name',
    match: (ids: Cond, { alias }) =>
      sql`(${sql.ref(`${alias}.assigned_object_type`)} = ${type} and ${sql.ref(`${alias}.assigned_object_id`)} in ${ids})`,
  });
}

/** MAC objects some interface names as its primary */
const isPrimary = (alias: string) =>
  sql`(${sql.ref(`${alias}.id`)} in (select primary_mac_address_id from dcim_interface where primary_mac_address_id is not null)
    or ${sql.ref(`${alias}.id`)} in (select primary_mac_address_id from virtualization_vminterface where primary_mac_address_id is not null))`;

export const macAddress = defineModel({
  name: 'dcim.macaddress',
  path: 'mac-addresses',
  verboseName: 'MAC address',
  verboseNamePlural: 'MAC addresses',
  schemaName: 'MACAddress',
  dialect: '4.4',
  fields: {
    mac_address: { kind: 'mac', required: true, label: 'MAC address' },
    assigned_object_type: { kind: 'contenttype', nullable: true, types: ASSIGNABLE },
    assigned_object_id: { kind: 'integer', nullable: true, min: 0 },
    assigned_object: { kind: 'generic', generic: { type: 'assigned_object_type', id: 'assigned_object_id' } },
    description: description(),
    comments: comments(),
  },
  relatedObject: 'assigned_object',
  // NetBox 4.4 InterfaceFilterSet: `primary_mac_address=` names the address
  naturalKey: 'mac_address',
  filters: {
    device: ownerFilter('device', 'device', false),
    device_id: ownerFilter('device_id', 'device', true),
    virtual_machine: ownerFilter('virtual_machine', 'vm', false),
    virtual_machine_id: ownerFilter('virtual_machine_id', 'vm', true),
    interface: interfaceFilter('interface', 'dcim.interface', false),
    interface_id: interfaceFilter('interface_id', 'dcim.interface', true),
    vminterface: interfaceFilter('vminterface', 'virtualization.vminterface', false),
    vminterface_id: interfaceFilter('vminterface_id', 'virtualization.vminterface', true),
    assigned: booleanFilter((a) => sql`(${sql.ref(`${a}.assigned_object_id`)} is not null)`),
    primary: booleanFilter(isPrimary),
    // NetBox 4.4 MACAddressFilterSet.search: the address or the description contains it
    q: {
      async build(values, _lookup, { alias }) {
        const q = searchTerm(values);
        if (!q) return null;
        const p = `%${likeEscape(q)}%`;
        const op = likeFor(q);
        return sql`(${sql.ref(`${alias}.mac_address`)} ${op} ${p} or ${sql.ref(`${alias}.description`)} ${op} ${p})`;
      },
    },
  },
  hooks: {
    async validate({ rc, data, before }) {
      // NetBox 4.4 MACAddress.clean(): a primary MAC stays on its interface
      if (!before || before.assigned_object_id == null) return;
      const moved =
        data.assigned_object_type !== before.assigned_object_type ||
        Number(data.assigned_object_id) !== Number(before.assigned_object_id);
      if (!moved) return;
      const owner = MAC_OWNERS.find((o) => o.type === before.assigned_object_type);
      if (!owner) return;
      const res = await sql<Row>`select 1 from ${sql.table(owner.table)}
        where id = ${before.assigned_object_id} and primary_mac_address_id = ${before.id}`.execute(rc.q);
      if (!res.rows.length) return;
      const verb = data.assigned_object_id == null ? 'unassign' : 'reassign';
      return { __all__: [`Cannot ${verb} MAC Address while it is designated as the primary MAC for an object`] };
    },
    // a primary's new address is its interface's too
    async afterUpdate({ rc, row, before }) {
      if (before && before.mac_address !== row.mac_address) await mirrorMacObjects(rc, [row]);
    },
    async afterDelete({ rc, rows, deleting }) {
      await unmirrorDeleted(rc, rows, deleting);
    },
  },
  display: (row) => String(row.mac_address),
  ui: {
    columns: ['mac_address', 'assigned_object_type', 'assigned_object', 'description'],
    groups: [
      { title: 'MAC Address', fields: ['mac_address', 'description'] },
      { title: 'Assignment', fields: ['assigned_object_type', 'assigned_object_id', 'assigned_object'] },
    ],
  },
  brief: ['mac_address', 'description'],
  netbox44: { brief: ['mac_address', 'description'] },
  ordering: ['mac_address', 'id'],
  search: ['mac_address', 'description'],
});
