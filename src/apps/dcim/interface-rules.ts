/**
 * Validation of an interface against its device and its related interfaces (NetBox 3.4
 * Interface.clean()): parent, bridge and LAG on the same device (or virtual chassis), only virtual
 * interfaces take a parent, virtual ones join no LAG, virtual and wireless types take no cable,
 * PoE type needs a PoE mode, components stay on their device.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { Row } from '../../core/represent/load-related.js';
import { isCableable, VIRTUAL_INTERFACE_TYPES } from './choices.js';

type Errors = Record<string, string[]>;

export async function validateInterface(rc: RequestContext, data: Row, before: Row | null): Promise<Errors> {
  const errors: Errors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (before && Number(before.device_id) !== Number(data.device_id)) add('device', 'Components cannot be moved to a different device.');
  const type = String(data.type);
  const virtual = type === 'virtual';
  if (data.cable_id != null && !isCableable(type)) add('type', `Interfaces with type ${type} cannot have a cable attached.`);
  if (data.mark_connected && !isCableable(type)) add('mark_connected', `Interfaces with type ${type} cannot be marked as connected.`);
  if (data.poe_type && !data.poe_mode) add('poe_type', 'Must specify PoE mode when designating a PoE type.');
  if (data.poe_mode && VIRTUAL_INTERFACE_TYPES.has(type)) add('poe_mode', 'Virtual interfaces cannot have a PoE mode.');

  const relatedIds = ['parent_id', 'bridge_id', 'lag_id'].map((k) => data[k]).filter((v) => v != null).map(Number);
  if (!relatedIds.length) return errors;
  const res = await sql<Row>`select i.id, i.name, i.type, i.device_id, d.name as device_name, d.virtual_chassis_id as vc
    from dcim_interface i join dcim_device d on d.id = i.device_id where i.id = any(${relatedIds}::bigint[])`.execute(rc.q);
  const byId = new Map(res.rows.map((r) => [Number(r.id), r]));
  const own = await sql<Row>`select virtual_chassis_id as vc from dcim_device where id = ${data.device_id}`.execute(rc.q);
  const ownVc = own.rows[0]?.vc ?? null;
  const sameDevice = (r: Row) => Number(r.device_id) === Number(data.device_id) || (ownVc != null && Number(r.vc) === Number(ownVc));

  for (const [key, label] of [['parent', 'parent'], ['bridge', 'bridge'], ['lag', 'LAG']] as const) {
    const id = data[`${key}_id`];
    if (id == null) continue;
    const other = byId.get(Number(id))!;
    if (data.id != null && Number(id) === Number(data.id)) {
      add(key, `An interface cannot be its own ${label}.`);
    } else if (!sameDevice(other)) {
      add(key, `The selected ${label} interface (${String(other.name)}) belongs to a different device (${String(other.device_name)}).`);
    }
  }
  if (data.parent_id != null && !virtual) add('parent', 'Only virtual interfaces may be assigned to a parent interface.');
  if (data.lag_id != null) {
    if (virtual) add('lag', 'Virtual interfaces cannot have a parent LAG interface.');
    else if (byId.get(Number(data.lag_id))?.type !== 'lag') add('lag', 'The selected LAG interface is not of type lag.');
  }
  return errors;
}
