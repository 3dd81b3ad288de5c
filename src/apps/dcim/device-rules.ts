/**
 * Validation of a device against its surroundings (reference 3.2, NetBox 3.4 Device.clean()):
 * rack and location inside the device's site, rack faces and positions, free rack space, virtual
 * chassis position, platform manufacturer, cluster in the device's site. `data` is the merged row
 * (stored + written columns).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { Row } from '../../core/model/types.js';
import { lookupAll, lookupOne, preloadLookups } from '../../core/crud/row-by-id.js';

type Errors = Record<string, string[]>;

/** a related row: read once per validation of a bulk write (crud/row-by-id.ts lookupOne) */
const one = lookupOne;

/** what the rules read of a device type */
const TYPE_COLUMNS = sql`dt.model, dt.u_height, dt.is_full_depth, dt.subdevice_role, dt.manufacturer_id, m.name as manufacturer,
  dt.default_platform_id
  from dcim_devicetype dt join dcim_manufacturer m on m.id = dt.manufacturer_id`;
const typeRead = (id: number) => sql<Row>`select ${TYPE_COLUMNS} where dt.id = ${id}`;

export function typeOf(rc: RequestContext, typeId: unknown): Promise<Row | undefined> {
  return one(rc, typeRead(Number(typeId)));
}

/** what the placement rules read of a device's rack (its site and location, its height) */
const RACK_COLUMNS = sql`site_id, location_id, name, u_height, starting_unit from dcim_rack`;
const rackRead = (id: number) => sql<Row>`select ${RACK_COLUMNS} where id = ${id}`;

function rackOf(rc: RequestContext, rackId: unknown): Promise<Row | undefined> {
  return one(rc, rackRead(Number(rackId)));
}

/** the racked devices of a rack as stored */
const OCCUPANT_COLUMNS = sql`d.id, d.position, d.face, dt.u_height, dt.is_full_depth
  from dcim_device d join dcim_devicetype dt on dt.id = d.device_type_id`;
const occupantsRead = (rackId: number) =>
  sql<Row>`select ${OCCUPANT_COLUMNS} where d.rack_id = ${rackId} and d.position is not null`;

/**
 * The device types, racks and racked devices the items of a write will be validated against, one
 * statement each for all the items (ModelHooks.beforeValidate; crud/row-by-id.ts preloadLookups).
 */
export async function preloadDeviceRules(rc: RequestContext, items: ReadonlyArray<Row>): Promise<void> {
  await preloadLookups(
    rc,
    items.map((d) => d.device_type_id),
    typeRead,
    (ids) => sql<Row>`select dt.id as __of, ${TYPE_COLUMNS} where dt.id = any(${ids}::bigint[])`,
  );
  const racks = items.map((d) => d.rack_id);
  await preloadLookups(
    rc,
    racks,
    rackRead,
    (ids) => sql<Row>`select id as __of, ${RACK_COLUMNS} where id = any(${ids}::bigint[])`,
  );
  await preloadLookups(
    rc,
    items.filter((d) => d.position != null).map((d) => d.rack_id),
    occupantsRead,
    (ids) =>
      sql<Row>`select d.rack_id as __of, ${OCCUPANT_COLUMNS} where d.rack_id = any(${ids}::bigint[]) and d.position is not null`,
  );
}

async function checkPlacement(rc: RequestContext, data: Row, errors: Errors) {
  if (data.location_id != null) {
    const loc = await one(rc, sql<Row>`select site_id, name from dcim_location where id = ${data.location_id}`);
    if (Number(loc?.site_id) !== Number(data.site_id)) {
      errors.location = [`Location ${String(loc?.name)} does not belong to the device's site.`];
    }
  }
  if (data.rack_id != null) {
    const rack = await rackOf(rc, data.rack_id);
    if (Number(rack?.site_id) !== Number(data.site_id)) {
      errors.rack = [`Rack ${String(rack?.name)} does not belong to the device's site.`];
    } else if (
      data.location_id != null &&
      rack?.location_id != null &&
      Number(rack.location_id) !== Number(data.location_id)
    ) {
      errors.rack = [`Rack ${String(rack?.name)} does not belong to the device's location.`];
    }
  }
}

/** a device holding rack units: where it starts, on which face, how many units, and whether it takes both faces */
interface Occupant {
  id: number | null;
  position: number;
  face: unknown;
  height: number;
  fullDepth: boolean;
}

/**
 * The racked devices of a rack as stored, read once per validation of a write (lookupAll): a bulk
 * create of 100 devices into five racks asked PostgreSQL for a clash 100 times.
 */
async function storedOccupants(rc: RequestContext, rackId: unknown): Promise<Occupant[]> {
  const rows = await lookupAll(rc, occupantsRead(Number(rackId)));
  return rows.map((r) => ({
    id: Number(r.id),
    position: Number(r.position),
    face: r.face,
    height: Number(r.u_height),
    fullDepth: !!r.is_full_depth,
  }));
}

/** the devices written before this one in the same request that sit in its rack */
async function earlierOccupants(rc: RequestContext, rackId: unknown, earlier: ReadonlyArray<Row>): Promise<Occupant[]> {
  const out: Occupant[] = [];
  for (const e of earlier) {
    if (e.rack_id == null || Number(e.rack_id) !== Number(rackId) || e.position == null) continue;
    const t = await typeOf(rc, e.device_type_id);
    if (t)
      out.push({
        id: null,
        position: Number(e.position),
        face: e.face,
        height: Number(t.u_height),
        fullDepth: !!t.is_full_depth,
      });
  }
  return out;
}

/** NetBox 3.4 Rack.get_available_units: devices on the same face, or full-depth ones on either face, may not overlap */
function clashes(o: Occupant, data: Row, fullDepth: boolean, position: number, top: number): boolean {
  if (o.id != null && data.id != null && o.id === Number(data.id)) return false;
  return (o.face === data.face || o.fullDepth || fullDepth) && o.position < top && o.position + o.height > position;
}

async function checkRackPosition(
  rc: RequestContext,
  data: Row,
  type: Row,
  errors: Errors,
  earlier: ReadonlyArray<Row>,
) {
  const position = data.position == null ? null : Number(data.position);
  if (data.rack_id == null) {
    if (data.face) errors.face = ['Cannot select a rack face without assigning a rack.'];
    if (position != null) errors.position = ['Cannot select a rack position without assigning a rack.'];
    return;
  }
  if (position == null) return;
  if (!data.face) errors.face = ['Must specify rack face when defining rack position.'];
  if ((position * 2) % 1 !== 0) errors.position = ['Position must be in increments of 0.5 rack units.'];
  const height = Number(type.u_height);
  if (type.subdevice_role === 'child') {
    errors.face = ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'];
  }
  if (height === 0) {
    errors.position = [`A U0 device type (${String(type.model)}) cannot be assigned to a rack position.`];
  }
  if (errors.face || errors.position) return;
  const rack = await rackOf(rc, data.rack_id);
  const top = position + height;
  const occupants = [
    ...(await storedOccupants(rc, data.rack_id)),
    ...(await earlierOccupants(rc, data.rack_id, earlier)),
  ];
  // NetBox 4.1 Rack.units: from the starting unit, u_height of them
  const start = Number(rack?.starting_unit ?? 1);
  if (
    position < start ||
    top - 1 > start + Number(rack?.u_height ?? 0) - 1 ||
    occupants.some((o) => clashes(o, data, !!type.is_full_depth, position, top))
  ) {
    errors.position = [
      `U${position} is already occupied or does not have sufficient space to accommodate this device type: ${String(type.model)} (${height}U)`,
    ];
  }
}

async function checkPlatform(rc: RequestContext, data: Row, type: Row, errors: Errors) {
  if (data.platform_id == null) return;
  const p = await one(
    rc,
    sql<Row>`select p.manufacturer_id, m.name from dcim_platform p
    left join dcim_manufacturer m on m.id = p.manufacturer_id where p.id = ${data.platform_id}`,
  );
  if (p?.manufacturer_id != null && Number(p.manufacturer_id) !== Number(type.manufacturer_id)) {
    errors.platform = [
      `The assigned platform is limited to ${String(p.name)} device types, but this device's type belongs to ${String(type.manufacturer)}.`,
    ];
  }
}

/** `earlier`: the devices written before this one in the same request (they may not share its rack units). */
export async function validateDevice(rc: RequestContext, data: Row, earlier: ReadonlyArray<Row>): Promise<Errors> {
  const errors: Errors = {};
  const type = await typeOf(rc, data.device_type_id);
  await checkPlacement(rc, data, errors);
  if (type) {
    await checkRackPosition(rc, data, type, errors, earlier);
    await checkPlatform(rc, data, type, errors);
  }
  if (data.cluster_id != null) {
    // NetBox 3.4: a cluster with a site only takes devices of that site
    const c = await one(
      rc,
      sql<Row>`select c.site_id, s.name as site from virtualization_cluster c
      left join dcim_site s on s.id = c.site_id where c.id = ${data.cluster_id}`,
    );
    if (c?.site_id != null && Number(c.site_id) !== Number(data.site_id)) {
      errors.cluster = [`The assigned cluster belongs to a different site (${String(c.site)})`];
    }
  }
  if (data.virtual_chassis_id != null && data.vc_position == null) {
    errors.vc_position = ['A device assigned to a virtual chassis must have its position defined.'];
  }
  return errors;
}

/**
 * NetBox's display of devices without a name: "<chassis>:<position> (<id>)" for chassis members,
 * else "<manufacturer> <model> (<id>)". One query for the unnamed devices of a page.
 */
export async function unnamedDisplays(rc: RequestContext, rows: Row[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const ids = rows.filter((r) => r.name == null || r.name === '').map((r) => Number(r.id));
  if (!ids.length) return out;
  const res = await sql<Row>`select d.id, d.vc_position, vc.name as vc_name, m.name as manufacturer, dt.model
    from dcim_device d join dcim_devicetype dt on dt.id = d.device_type_id join dcim_manufacturer m on m.id = dt.manufacturer_id
    left join dcim_virtualchassis vc on vc.id = d.virtual_chassis_id where d.id = any(${ids}::bigint[])`.execute(rc.q);
  for (const r of res.rows) {
    out.set(
      Number(r.id),
      r.vc_name != null && r.vc_position != null
        ? `${String(r.vc_name)}:${String(r.vc_position)} (${String(r.id)})`
        : `${String(r.manufacturer)} ${String(r.model)} (${String(r.id)})`,
    );
  }
  return out;
}
