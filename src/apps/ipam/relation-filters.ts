/**
 * IPAM filters that reach through other tables: VRF presence through route targets, the VRF
 * import/export target sets, VLAN vid, VLAN group scopes, and the interfaces an address is
 * assigned to (those tables belong to dcim and virtualization and are queried by name only once
 * they exist).
 */
import { sql } from 'kysely';
import type { AppContext, RequestContext } from '../../core/context.js';
import type { CustomFilter } from '../../core/model/types.js';
import type { Cond } from '../../core/query/lookups.js';
import { invalidChoice, namedIds } from '../../core/query/named-ids.js';
import { parseFilterValue } from '../../core/query/parse-value.js';
import { numericFilter } from '../../core/query/filter-blocks.js';

const negate = (c: Cond, lookup: string) => (lookup === 'n' ? sql`not coalesce(${c}, false)` : c);

/**
 * NetBox 3.4 present_in_vrf: objects in the VRF, or in any VRF exporting a route target the VRF
 * imports (what the VRF's routing table would hold).
 */
export function presentInVrfFilter(byId: boolean): CustomFilter {
  const param = byId ? 'present_in_vrf_id' : 'present_in_vrf';
  return {
    type: byId ? 'integer' : 'string',
    async build(values, _lookup, { rc, alias }) {
      const ids = await namedIds(rc, param, 'ipam_vrf', byId ? 'id' : 'rd', values);
      const vrf = sql.ref(`${alias}.vrf_id`);
      return sql`(${vrf} = any(${ids}::bigint[]) or ${vrf} in (select e.vrf_id from ipam_vrf_export_targets e
        join ipam_vrf_import_targets i on i.routetarget_id = e.routetarget_id where i.vrf_id = any(${ids}::bigint[])))`;
    },
  };
}

/** prefix vlan_vid: the vid of the prefix's VLAN, with numeric lookups */
export const vlanVidFilter: CustomFilter = numericFilter(
  (a) => sql`(select v.vid from ipam_vlan v where v.id = ${sql.ref(`${a}.vlan_id`)})`,
  'vlan_vid',
  ['n', 'lt', 'lte', 'gt', 'gte'],
);

/** VLAN group `site=<id>` etc.: groups scoped to those objects (NetBox 3.4 filter_scope) */
export function scopeFilter(type: string, param: string): CustomFilter {
  return {
    type: 'integer',
    async build(values, _lookup, { alias }) {
      const ids = values.map((v) => parseFilterValue(param, 'id', v) as number);
      return sql`(${sql.ref(`${alias}.scope_type`)} = ${type} and ${sql.ref(`${alias}.scope_id`)} = any(${ids}::bigint[]))`;
    },
  };
}

// to_regclass once per app and table: the answer only changes when migrations run, at start
const tableCache = new WeakMap<AppContext, Map<string, Promise<boolean>>>();
function tableExists(rc: RequestContext, table: string): Promise<boolean> {
  let byTable = tableCache.get(rc.app);
  if (!byTable) tableCache.set(rc.app, (byTable = new Map()));
  let found = byTable.get(table);
  if (!found) {
    found = sql<{ ok: boolean }>`select to_regclass(${table}) is not null as ok`
      .execute(rc.app.db.kysely)
      .then((r) => !!r.rows[0]?.ok);
    byTable.set(table, found);
  }
  return found;
}

export interface AssignedTarget {
  /** content type of the interfaces (`dcim.interface`) */
  type: string;
  /** interface table */
  table: string;
  /** column of the interface table pointing at its parent (device_id) */
  parentColumn: string;
  /** table of the parents (dcim_device) */
  parentTable: string;
}

export const DEVICE_INTERFACES: AssignedTarget = {
  type: 'dcim.interface',
  table: 'dcim_interface',
  parentColumn: 'device_id',
  parentTable: 'dcim_device',
};
export const VM_INTERFACES: AssignedTarget = {
  type: 'virtualization.vminterface',
  table: 'virtualization_vminterface',
  parentColumn: 'virtual_machine_id',
  parentTable: 'virtualization_virtualmachine',
};

/**
 * `interface_id` / `interface` (by name): addresses assigned to those interfaces. Like NetBox's
 * model-choice filters, unknown interfaces are a 400 (none exist before the app is installed).
 */
export function interfaceFilter(target: AssignedTarget, param: string, byId: boolean): CustomFilter {
  return {
    type: byId ? 'integer' : 'string',
    lookups: ['n'],
    async build(values, lookup, { rc, alias }) {
      const name = lookup === 'n' ? `${param}__n` : param;
      if (!(await tableExists(rc, target.table))) throw invalidChoice(name, values[0]!);
      const ids = await namedIds(rc, name, target.table, byId ? 'id' : 'name', values);
      const c = sql`(${sql.ref(`${alias}.assigned_object_type`)} = ${target.type}
        and ${sql.ref(`${alias}.assigned_object_id`)} = any(${ids}::bigint[]))`;
      return negate(c, lookup);
    },
  };
}

/**
 * `device_id` / `device` (by name): addresses on the interfaces of those devices (with their
 * chassis members' for a master); unknown ones match nothing
 */
export function parentFilter(target: AssignedTarget, param: string, byId: boolean): CustomFilter {
  return {
    type: byId ? 'integer' : 'string',
    async build(values, _lookup, { rc, alias }) {
      const keys = byId ? values.map((v) => parseFilterValue(param, 'id', v) as number) : values;
      if (!(await tableExists(rc, target.table)) || !(await tableExists(rc, target.parentTable))) return sql`false`;
      const parents = byId
        ? sql`select unnest(${keys}::bigint[])`
        : sql`select id from ${sql.table(target.parentTable)} where name = any(${keys}::text[])`;
      // NetBox 3.4 IPAddressFilterSet.filter_device: device.vc_interfaces() - a chassis master's
      // addresses include those on its members' non-management interfaces
      const members =
        target === DEVICE_INTERFACES
          ? sql` or (not i.mgmt_only and i.device_id in (select m.id from dcim_device m
            join dcim_virtualchassis vc on vc.id = m.virtual_chassis_id where vc.master_id in (${parents})))`
          : sql``;
      return sql`(${sql.ref(`${alias}.assigned_object_type`)} = ${target.type} and ${sql.ref(`${alias}.assigned_object_id`)} in
        (select i.id from ${sql.table(target.table)} i where ${sql.ref(`i.${target.parentColumn}`)} in (${parents})${members}))`;
    },
  };
}

/** NetBox 3.4 assigned_to_interface: assigned to a device or VM interface (true) or not (false) */
export const assignedToInterfaceFilter: CustomFilter = {
  type: 'boolean',
  async build(values, _lookup, { alias, param }) {
    const v = values.map((x) => parseFilterValue(param, 'boolean', x))[0]!;
    const on = sql`(${sql.ref(`${alias}.assigned_object_type`)} = any(${[DEVICE_INTERFACES.type, VM_INTERFACES.type]}::text[])
      and ${sql.ref(`${alias}.assigned_object_id`)} is not null)`;
    return v ? on : sql`not ${on}`;
  },
};

/** 3.7 `assigned`: assigned to any object */
export const assignedFilter: CustomFilter = {
  type: 'boolean',
  async build(values, _lookup, { alias, param }) {
    const v = values.map((x) => parseFilterValue(param, 'boolean', x))[0]!;
    return v
      ? sql`${sql.ref(`${alias}.assigned_object_id`)} is not null`
      : sql`${sql.ref(`${alias}.assigned_object_id`)} is null`;
  },
};
