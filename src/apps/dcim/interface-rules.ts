/**
 * Validation of an interface against its owner and its related interfaces (NetBox 3.4
 * Interface.clean() and VMInterface.clean()): parent, bridge and LAG on the same device (or
 * virtual chassis) / the same virtual machine, never the interface itself. Device interfaces add:
 * only virtual interfaces take a parent, virtual ones join no LAG, virtual and wireless types take
 * no cable, PoE type needs a PoE mode, components stay on their device.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { Row } from '../../core/model/types.js';
import { type AssignedTarget, DEVICE_INTERFACES } from '../ipam/relation-filters.js';
import { isCableable, VIRTUAL_INTERFACE_TYPES } from './choices.js';

type Errors = Record<string, string[]>;

/**
 * Where an interface model keeps its owner (the interface table, its column and the owners' table,
 * as IP assignment knows them), so device and VM interfaces share these rules.
 */
export interface InterfaceOwner extends AssignedTarget {
  /** how messages name the owner */
  noun: string;
  /** join table of the tagged VLANs */
  taggedVlans: { table: string; column: string };
  /** owners sharing a value here count as one (devices: members of one virtual chassis) */
  chassisColumn?: string;
}

export const DEVICE_INTERFACE_OWNER: InterfaceOwner = {
  ...DEVICE_INTERFACES,
  noun: 'device',
  taggedVlans: { table: 'dcim_interface_tagged_vlans', column: 'interface_id' },
  chassisColumn: 'virtual_chassis_id',
};

const LABELS: Record<string, string> = { parent: 'parent', bridge: 'bridge', lag: 'LAG' };

/**
 * The related interfaces named by `keys` (parent, bridge, lag): not the interface itself, and on
 * the same owner. Adds errors to `errors`; returns the related rows by id (id, name, type if any).
 */
export async function checkRelatedInterfaces(
  rc: RequestContext,
  data: Row,
  owner: InterfaceOwner,
  keys: string[],
  errors: Errors,
): Promise<Map<number, Row>> {
  const relatedIds = keys
    .map((k) => data[`${k}_id`])
    .filter((v) => v != null)
    .map(Number);
  if (!relatedIds.length) return new Map();
  const chassis = owner.chassisColumn ? sql.ref(`o.${owner.chassisColumn}`) : sql`null::bigint`;
  const res = await sql<Row>`select i.*, o.name as owner_name, ${chassis} as chassis
    from ${sql.table(owner.table)} i join ${sql.table(owner.parentTable)} o on o.id = ${sql.ref(`i.${owner.parentColumn}`)}
    where i.id = any(${relatedIds}::bigint[])`.execute(rc.q);
  const byId = new Map(res.rows.map((r) => [Number(r.id), r]));
  // only devices sit in a virtual chassis: a VM interface's owner needs no second look
  const ownChassis = owner.chassisColumn
    ? ((
        await sql<Row>`select ${chassis} as chassis from ${sql.table(owner.parentTable)} o where o.id = ${data[owner.parentColumn]}`.execute(
          rc.q,
        )
      ).rows[0]?.chassis ?? null)
    : null;
  const ownerId = Number(data[owner.parentColumn]);
  const sameOwner = (r: Row) =>
    Number(r[owner.parentColumn]) === ownerId || (ownChassis != null && Number(r.chassis) === Number(ownChassis));

  for (const key of keys) {
    const id = data[`${key}_id`];
    if (id == null) continue;
    const other = byId.get(Number(id))!;
    const label = LABELS[key] ?? key;
    if (data.id != null && Number(id) === Number(data.id)) {
      (errors[key] ??= []).push(`An interface cannot be its own ${label}.`);
    } else if (!sameOwner(other)) {
      (errors[key] ??= []).push(
        `The selected ${label} interface (${String(other.name)}) belongs to a different ${owner.noun} (${String(other.owner_name)}).`,
      );
    }
  }
  return byId;
}

export async function validateInterface(rc: RequestContext, data: Row, before: Row | null): Promise<Errors> {
  const errors: Errors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (before && Number(before.device_id) !== Number(data.device_id))
    add('device', 'Components cannot be moved to a different device.');
  const type = String(data.type);
  const virtual = type === 'virtual';
  if (data.cable_id != null && !isCableable(type))
    add('type', `Interfaces with type ${type} cannot have a cable attached.`);
  if (data.mark_connected && !isCableable(type))
    add('mark_connected', `Interfaces with type ${type} cannot be marked as connected.`);
  if (data.poe_type && !data.poe_mode) add('poe_type', 'Must specify PoE mode when designating a PoE type.');
  if (data.poe_mode && VIRTUAL_INTERFACE_TYPES.has(type)) add('poe_mode', 'Virtual interfaces cannot have a PoE mode.');

  const byId = await checkRelatedInterfaces(rc, data, DEVICE_INTERFACE_OWNER, ['parent', 'bridge', 'lag'], errors);
  if (data.parent_id != null && !virtual)
    add('parent', 'Only virtual interfaces may be assigned to a parent interface.');
  if (data.lag_id != null) {
    if (virtual) add('lag', 'Virtual interfaces cannot have a parent LAG interface.');
    else if (byId.get(Number(data.lag_id))?.type !== 'lag')
      add('lag', 'The selected LAG interface is not of type lag.');
  }
  return errors;
}
