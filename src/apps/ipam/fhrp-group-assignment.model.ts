/**
 * FHRP group assignments (NetBox 3.4 FHRPGroupAssignment): an interface (of a device or a virtual
 * machine) taking part in an FHRP group with a priority; once per interface and group.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { fk } from '../fields.js';
import { FHRP_INTERFACE_TYPES } from './choices.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fhrpGroup } from './fhrp-group.model.js';
import type { RequestContext } from '../../core/context.js';
import { rowOfType } from '../../core/crud/row-by-id.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { parseIds } from '../../core/query/filter-blocks.js';

/**
 * `type:id` -> interface name for the assignments of a page whose nested interface is not in the
 * output (brief or `fields=`), one statement per interface kind
 */
async function interfaceNames(rc: RequestContext, rows: Row[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const type of FHRP_INTERFACE_TYPES) {
    const ids = rows.filter((r) => r.interface_type === type).map((r) => Number(r.interface_id));
    if (!ids.length) continue;
    const res =
      await sql<Row>`select id, name from ${sql.table(rc.app.registry.get(type).table)} where id = any(${ids}::bigint[])`.execute(
        rc.q,
      );
    for (const r of res.rows) out.set(`${type}:${String(r.id)}`, String(r.name));
  }
  return out;
}

/**
 * `device` / `device_id`, `virtual_machine` / `virtual_machine_id`: assignments on their
 * interfaces; a virtual chassis master's include its members' interfaces (NetBox vc_interfaces)
 */
function ownerFilter(kind: 'device' | 'vm', byId: boolean): CustomFilter {
  return {
    type: byId ? 'integer' : 'string',
    async build(values, _lookup, { alias, param }) {
      const type = sql.ref(`${alias}.interface_type`);
      const id = sql.ref(`${alias}.interface_id`);
      if (kind === 'vm') {
        const vms = byId
          ? sql`select unnest(${parseIds(param, values)}::bigint[])`
          : sql`select id from virtualization_virtualmachine where name = any(${values}::text[])`;
        return sql`(${type} = 'virtualization.vminterface' and ${id} in (select id from virtualization_vminterface where virtual_machine_id in (${vms})))`;
      }
      const devices = byId
        ? sql`select unnest(${parseIds(param, values)}::bigint[])`
        : sql`select id from dcim_device where name = any(${values}::text[])`;
      return sql`(${type} = 'dcim.interface' and ${id} in (select i.id from dcim_interface i join dcim_device d on d.id = i.device_id
        where d.id in (${devices}) or d.virtual_chassis_id in (select vc.id from dcim_virtualchassis vc where vc.master_id in (${devices}))))`;
    },
  };
}

export const fhrpGroupAssignment = defineModel({
  name: 'ipam.fhrpgroupassignment',
  path: 'fhrp-group-assignments',
  verboseName: 'FHRP group assignment',
  tags: false,
  customFields: false,
  fields: {
    group: fk('ipam.fhrpgroup', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      relatedName: 'fhrpgroupassignment_set',
    }),
    interface_type: { kind: 'contenttype', required: true, types: FHRP_INTERFACE_TYPES },
    interface_id: { kind: 'integer', required: true, min: 0 },
    // deleting the interface deletes its assignments (NetBox: GenericRelation on interfaces)
    interface: { kind: 'generic', generic: { type: 'interface_type', id: 'interface_id' }, onDelete: 'cascade' },
    priority: { kind: 'integer', required: true, min: 0, max: 255 },
  },
  uniqueTogether: [
    {
      fields: ['interface_type', 'interface_id', 'group'],
      message: 'FHRP group assignment with this Interface type, Interface id and Group already exists.',
    },
  ],
  filters: {
    device: ownerFilter('device', false),
    device_id: ownerFilter('device', true),
    virtual_machine: ownerFilter('vm', false),
    virtual_machine_id: ownerFilter('vm', true),
    // not in NetBox (its assignments take no q): the group's name, as the contact assignments search theirs
    q: {
      async build(values, _lookup, { alias }) {
        const q = searchTerm(values);
        if (!q) return null;
        return sql`${sql.ref(`${alias}.group_id`)} in (select id from ipam_fhrpgroup where name ${likeFor(q)} ${`%${likeEscape(q)}%`})`;
      },
    },
  },
  hooks: {
    async validate({ rc, data, before }) {
      const type = data.interface_type ?? before?.interface_type;
      const id = data.interface_id ?? before?.interface_id;
      if (type == null || id == null) return;
      if (!(await rowOfType(rc, type, id, ['id'])))
        return { interface_id: [`Related object not found using the provided value: ${String(id)}.`] };
    },
    async represent(rc, rows, out) {
      // NetBox: "<interface>: <group> (<priority>)". The nested group and interface give the names
      // when the output holds them; only what is missing is read.
      const nested = (o: Record<string, unknown> | undefined, key: string) =>
        (o?.[key] as { display?: string; name?: string } | null | undefined) ?? undefined;
      const missingIface = rows.filter((_r, i) => nested(out[i], 'interface')?.name === undefined);
      const names = missingIface.length ? await interfaceNames(rc, missingIface) : new Map<string, string>();
      const missingGroup = rows
        .filter((_r, i) => nested(out[i], 'group')?.display === undefined)
        .map((r) => Number(r.group_id));
      const groupDisplay = new Map<number, string>();
      if (missingGroup.length) {
        for (const g of await fetchRowsById(rc, fhrpGroup, missingGroup))
          groupDisplay.set(Number(g.id), fhrpGroup.display(g));
      }
      rows.forEach((r, i) => {
        const iface =
          nested(out[i], 'interface')?.name ??
          names.get(`${String(r.interface_type)}:${String(r.interface_id)}`) ??
          String(r.interface_id);
        const group = nested(out[i], 'group')?.display ?? groupDisplay.get(Number(r.group_id)) ?? '';
        out[i]!.display = `${iface}: ${group} (${String(r.priority)})`;
      });
    },
  },
  display: (row) => `${String(row.interface_id)}: ${String(row.group_id)} (${String(row.priority)})`,
  brief: ['group', 'interface_type', 'interface_id', 'priority'],
  ordering: ['-priority', 'id'],
  search: [],
});
