/**
 * What MAC address objects (NetBox 4.2) add to device and VM interfaces, and how an interface's
 * `mac_address` is kept in step with its primary MAC object:
 *
 * - `primary_mac_address` (4.4 only): one of its MAC objects. Setting it sets `mac_address` to
 *   that object's address; a MAC object of another interface is refused (NetBox 4.2's rule); an
 *   unassigned one is assigned to the interface, so a primary is always on its interface.
 * - `mac_address` (both dialects, writable as NetBox 4.7 has it again): writing it updates the
 *   primary's address, or makes the interface's MAC object of that address its primary, or creates
 *   one; writing null leaves the interface without a primary (the object stays).
 * - a primary's address changed through /api/dcim/mac-addresses/ is its interface's too; deleting
 *   it clears the interface's `mac_address`.
 * - `mac_addresses` (4.4 only, read-only): the MAC objects assigned to it, nested.
 *
 * Every follow-up write goes through the write path (createDerived, updateObjects), so each object
 * changed gets its change record and events; an interface's own `primary_mac_address` is set
 * before its change record is written, so that record shows it.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { createDerived, updateObjects } from '../../core/crud/write-service.js';
import type { FieldDef, Row, WriteHookArgs } from '../../core/model/types.js';
import { type Ids, idIn } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { fk } from '../fields.js';

export interface MacOwner {
  /** the interface model (content type) */
  type: string;
  table: string;
  owner: 'device' | 'vm';
  /** the table of the interfaces' owners, and the interfaces' column pointing at it */
  ownerTable: string;
  ownerColumn: string;
}

/** the models a MAC object may be assigned to (NetBox 4.4 MACADDRESS_ASSIGNMENT_MODELS) */
export const MAC_OWNERS: readonly MacOwner[] = [
  {
    type: 'dcim.interface',
    table: 'dcim_interface',
    owner: 'device',
    ownerTable: 'dcim_device',
    ownerColumn: 'device_id',
  },
  {
    type: 'virtualization.vminterface',
    table: 'virtualization_vminterface',
    owner: 'vm',
    ownerTable: 'virtualization_virtualmachine',
    ownerColumn: 'virtual_machine_id',
  },
];

const ownerOf = (type: string): MacOwner => MAC_OWNERS.find((o) => o.type === type)!;

/** the fields an interface gains, in NetBox 4.4's place (after `mac_address`) */
export function macFields(): Record<string, FieldDef> {
  return {
    // NetBox 4.4: a one-to-one link, cleared when the object is deleted
    primary_mac_address: fk('dcim.macaddress', {
      onDelete: 'set_null',
      unique: true,
      label: 'primary MAC address',
      dialect: '4.4',
    }),
    mac_addresses: {
      kind: 'computed',
      readOnly: true,
      label: 'MAC addresses',
      dialect: '4.4',
      shape: { type: 'array', items: { $model: 'dcim.macaddress' } },
    },
  };
}

/** ModelDef.representRows of an interface model: its MAC objects */
export function macAddressRows(type: string): { model: string; select: (ids: Ids) => RawBuilder<unknown> } {
  return {
    model: 'dcim.macaddress',
    select: (ids) => sql`select * from dcim_macaddress where assigned_object_type = ${sql.lit(type)}
      and ${idIn(sql.ref('assigned_object_id'), ids)}`,
  };
}

/** fills `mac_addresses` of a page of full representations (4.4), in NetBox's order */
export async function representMacAddresses(
  rc: RequestContext,
  rows: Row[],
  out: Row[],
  mode: string,
  macs: () => Promise<Row[]>,
): Promise<void> {
  if (mode !== 'full' || !rows.length || !('mac_addresses' in out[0]!)) return;
  const found = (await macs()).sort(
    (a, b) => String(a.mac_address).localeCompare(String(b.mac_address)) || Number(a.id) - Number(b.id),
  );
  const nested = await render(rc, rc.app.registry.get('dcim.macaddress'), found, 'nested');
  const byOwner = new Map<number, Row[]>();
  found.forEach((r, i) => {
    const list = byOwner.get(Number(r.assigned_object_id)) ?? [];
    list.push(nested[i]!);
    byOwner.set(Number(r.assigned_object_id), list);
  });
  rows.forEach((r, i) => {
    out[i]!.mac_addresses = byOwner.get(Number(r.id)) ?? [];
  });
}

async function macRow(rc: RequestContext, id: unknown): Promise<Row | undefined> {
  const res = await sql<Row>`select * from dcim_macaddress where id = ${Number(id)}`.execute(rc.q);
  return res.rows[0];
}

/** NetBox 4.2 BaseInterface.clean(): the primary MAC object is this interface's or nobody's */
export async function validatePrimaryMac(
  rc: RequestContext,
  type: string,
  { data, before }: Pick<WriteHookArgs, 'data' | 'before'>,
): Promise<Record<string, string[]>> {
  const id = data.primary_mac_address_id;
  if (id == null || (before && Number(before.primary_mac_address_id) === Number(id))) return {};
  const mac = await macRow(rc, id);
  if (!mac || mac.assigned_object_id == null) return {};
  if (mac.assigned_object_type === type && Number(mac.assigned_object_id) === Number(data.id)) return {};
  const owner = ownerOf(String(mac.assigned_object_type));
  const other = await sql<{
    name: string;
    label: string | null;
  }>`select * from ${sql.table(owner.table)} where id = ${mac.assigned_object_id}`.execute(rc.q);
  const o = other.rows[0];
  // NetBox shows a component as "name (label)" when it has a label
  const shown = o ? (o.label ? `${o.name} (${o.label})` : o.name) : String(mac.assigned_object_id);
  return {
    primary_mac_address: [`MAC address ${String(mac.mac_address)} is assigned to a different interface (${shown}).`],
  };
}

/** the interface's `mac_address` is its primary's (or none) when the primary is written */
export async function preparePrimaryMac(rc: RequestContext, { data, sent }: WriteHookArgs): Promise<void> {
  if (!sent.has('primary_mac_address')) return;
  const id = data.primary_mac_address_id;
  data.mac_address = id == null ? null : ((await macRow(rc, id))?.mac_address ?? null);
}

/** whether an interface written with `data` has MAC objects to write after it (create-in-one.ts) */
export const writesMacObjects = (data: Row): boolean => data.mac_address != null || data.primary_mac_address_id != null;

/** the MAC objects an interface's write calls for (module comment), before its change record */
export async function syncMacObjects(rc: RequestContext, type: string, args: WriteHookArgs & { row: Row }) {
  const { sent, row } = args;
  const owner = ownerOf(type);
  const macModel = rc.app.registry.get('dcim.macaddress');
  const primary = row.primary_mac_address_id;
  if (sent.has('primary_mac_address')) {
    if (primary == null) return;
    const mac = await macRow(rc, primary);
    if (mac && mac.assigned_object_id == null) {
      const assign = { id: Number(primary), assigned_object_type: type, assigned_object_id: Number(row.id) };
      await updateObjects(rc, macModel, [assign], 'update', false, { followUp: true });
    }
    return;
  }
  // a create with a MAC address writes one; an update only when it is written
  if (!sent.has('mac_address') && !(args.before === null && row.mac_address != null)) return;
  const address = row.mac_address as string | null;
  if (address == null) {
    if (primary != null) await setPrimary(rc, owner, row, null);
    return;
  }
  if (primary != null) {
    const mac = await macRow(rc, primary);
    if (mac && mac.mac_address !== address)
      await updateObjects(rc, macModel, [{ id: Number(primary), mac_address: address }], 'update', false, {
        followUp: true,
      });
    return;
  }
  const own = await sql<{ id: number }>`select id from dcim_macaddress where assigned_object_type = ${type}
    and assigned_object_id = ${row.id} and mac_address = ${address} order by id limit 1`.execute(rc.q);
  const id =
    own.rows[0]?.id ??
    (
      await createDerived(rc, macModel, [
        { mac_address: address, assigned_object_type: type, assigned_object_id: Number(row.id) },
      ])
    )[0]!.id;
  await setPrimary(rc, owner, row, Number(id));
}

/** sets the interface's primary in its row and in the row its change record is made from */
async function setPrimary(rc: RequestContext, owner: MacOwner, row: Row, id: number | null): Promise<void> {
  await sql`update ${sql.table(owner.table)} set primary_mac_address_id = ${id} where id = ${row.id}`.execute(rc.q);
  row.primary_mac_address_id = id;
}

/** interfaces whose primary is one of these MAC objects take its (new) address */
export async function mirrorMacObjects(rc: RequestContext, macs: Row[]): Promise<void> {
  const address = new Map(macs.map((m) => [Number(m.id), m.mac_address as string]));
  for (const owner of MAC_OWNERS) {
    const res = await sql<Row>`select id, mac_address, primary_mac_address_id from ${sql.table(owner.table)}
      where primary_mac_address_id = any(${[...address.keys()]}::bigint[])`.execute(rc.q);
    const stale = res.rows
      .filter((r) => r.mac_address !== address.get(Number(r.primary_mac_address_id)))
      .map((r) => ({ id: Number(r.id), mac_address: address.get(Number(r.primary_mac_address_id)) }));
    if (stale.length)
      await updateObjects(rc, rc.app.registry.get(owner.type), stale, 'update', true, { followUp: true });
  }
}

/**
 * After MAC objects were deleted: interfaces they were the primary of (the database has cleared
 * `primary_mac_address`) lose their `mac_address`, unless the same delete removes them too.
 */
export async function unmirrorDeleted(
  rc: RequestContext,
  macs: ReadonlyArray<Row>,
  deleting: (model: string, id: number) => boolean,
): Promise<void> {
  for (const owner of MAC_OWNERS) {
    const mine = macs.filter(
      (m) =>
        m.assigned_object_type === owner.type &&
        m.assigned_object_id != null &&
        !deleting(owner.type, Number(m.assigned_object_id)),
    );
    if (!mine.length) continue;
    const res = await sql<Row>`select id, mac_address from ${sql.table(owner.table)}
      where id = any(${mine.map((m) => Number(m.assigned_object_id))}::bigint[]) and primary_mac_address_id is null
      and mac_address is not null`.execute(rc.q);
    const cleared = res.rows
      .filter((r) => mine.some((m) => Number(m.assigned_object_id) === Number(r.id) && m.mac_address === r.mac_address))
      .map((r) => ({ id: Number(r.id), mac_address: null }));
    if (cleared.length)
      await updateObjects(rc, rc.app.registry.get(owner.type), cleared, 'update', true, { followUp: true });
  }
}
