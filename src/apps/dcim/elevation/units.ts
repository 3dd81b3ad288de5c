/**
 * The rack units of one face, as NetBox 3.4's Rack.get_rack_units computes them: half-unit slots
 * (U1, U1.5, ... U<height>.5), top to bottom, or bottom to top when the rack numbers its units
 * descending. A device occupies the slots from its position up through its type's height on its
 * own face, and on both faces when its type is full depth. 0U devices and devices without a
 * position (child devices in bays are 0U) take no slot.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Face } from './params.js';
import type { Row } from '../../../core/model/types.js';

/** A device mounted in the rack, with what the elevation shows of it. */
export interface MountedDevice {
  id: number;
  rack_id: number;
  name: string | null;
  position: number;
  face: string;
  u_height: number;
  is_full_depth: boolean;
  asset_tag: string | null;
  serial: string;
  model: string;
  manufacturer: string;
  role: string;
  color: string;
  vc_name: string | null;
  vc_position: number | null;
  /** device bays, and those holding a child device (NetBox's "name (2/4)") */
  bays: number;
  bays_filled: number;
  /** the user may view it; otherwise its units show as occupied by nobody */
  visible: boolean;
}

export interface RackUnit {
  /** the unit number in half steps (42, 42.5) */
  id: number;
  name: string;
  face: Face;
  device: MountedDevice | null;
  occupied: boolean;
  /** expand_devices=false: the device's height on its lowest unit */
  height?: number;
}

/** Slots are numbered in halves: slot 2u is unit u, slot 2u+1 its upper half. */
const slotsOf = (position: number, height: number) => {
  const first = Math.round(position * 2);
  return Array.from({ length: Math.round(height * 2) }, (_, i) => first + i);
};

/** NetBox names a whole unit `U42` and a half `U42.5` */
const unitName = (u: number) => `U${u}`;

/** The unit numbers of the rack, in the order NetBox lists them (Rack.units). */
function unitNumbers(uHeight: number, descUnits: boolean, start: number): number[] {
  const slots = Array.from({ length: uHeight * 2 }, (_, i) => (i + 2) / 2 + start - 1);
  return descUnits ? slots : slots.reverse();
}

/**
 * The devices of the racks that take space on `face` (their own face, or any face when full depth),
 * except `exclude`, in one statement however many racks; `visibleIds` null means the user may view
 * every device.
 */
export async function mountedDevices(
  rc: RequestContext,
  rackIds: number[],
  face: Face | null,
  exclude: number | null,
  visibleIds: Set<number> | null,
): Promise<MountedDevice[]> {
  const res = await sql<Row>`select d.id, d.rack_id, d.name, d.position, d.face, d.asset_tag, d.serial, d.vc_position,
      dt.u_height, dt.is_full_depth, dt.model, m.name as manufacturer, r.name as role, r.color, vc.name as vc_name,
      (select count(*) from dcim_devicebay b where b.device_id = d.id)::int as bays,
      (select count(*) from dcim_devicebay b where b.device_id = d.id and b.installed_device_id is not null)::int as bays_filled
    from dcim_device d
    join dcim_devicetype dt on dt.id = d.device_type_id
    join dcim_manufacturer m on m.id = dt.manufacturer_id
    join dcim_devicerole r on r.id = d.role_id
    left join dcim_virtualchassis vc on vc.id = d.virtual_chassis_id
    where d.rack_id = any(${rackIds}::bigint[]) and d.position > 0 and dt.u_height > 0
      ${exclude === null ? sql`` : sql`and d.id <> ${exclude}`}
      ${face === null ? sql`` : sql`and (d.face = ${face} or dt.is_full_depth)`}
    order by d.position, d.id`.execute(rc.q);
  return res.rows.map((r) => ({
    id: Number(r.id),
    rack_id: Number(r.rack_id),
    name: (r.name as string | null) ?? null,
    position: Number(r.position),
    face: String(r.face),
    u_height: Number(r.u_height),
    is_full_depth: Boolean(r.is_full_depth),
    asset_tag: (r.asset_tag as string | null) ?? null,
    serial: String(r.serial ?? ''),
    model: String(r.model),
    manufacturer: String(r.manufacturer),
    role: String(r.role),
    color: String(r.color),
    vc_name: (r.vc_name as string | null) ?? null,
    vc_position: r.vc_position == null ? null : Number(r.vc_position),
    bays: Number(r.bays),
    bays_filled: Number(r.bays_filled),
    visible: visibleIds === null || visibleIds.has(Number(r.id)),
  }));
}

/**
 * Lays the devices onto the units. Expanded (the default), every unit a device covers names it;
 * otherwise only its lowest unit does, with the device's height (what the SVG draws from).
 */
export function layUnits(
  rack: { u_height: number; desc_units: boolean; starting_unit?: number },
  face: Face,
  devices: MountedDevice[],
  expand: boolean,
): RackUnit[] {
  const bySlot = new Map<number, RackUnit>();
  // NetBox 4.1: numbered from the rack's starting unit
  const units = unitNumbers(rack.u_height, rack.desc_units, rack.starting_unit ?? 1).map((u) => {
    const unit: RackUnit = { id: u, name: unitName(u), face, device: null, occupied: false };
    bySlot.set(Math.round(u * 2), unit);
    return unit;
  });
  for (const d of devices) {
    // a device reaching above the top (stored before the rack shrank) covers what exists
    const covered = expand ? slotsOf(d.position, d.u_height) : [Math.round(d.position * 2)];
    for (const slot of covered) {
      const unit = bySlot.get(slot);
      if (!unit) continue;
      // NetBox 3.4: a device the user may not view still occupies its units, unnamed
      if (d.visible) unit.device = d;
      unit.occupied = true;
      if (!expand) unit.height = d.u_height;
    }
  }
  return units;
}
