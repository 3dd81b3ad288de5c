/**
 * Rack elevations drawn into a web page (the rack's page and `/dcim/rack-elevations/`): the REST
 * route's renderer (apps/dcim/elevation/svg.ts) in its in-page form, for any number of racks in
 * three statements (the devices, which of them the user may view, the reservations), not three per
 * rack. Devices link to their pages, reservations to theirs, and, for a user who may add devices,
 * each empty unit to the add-device form at that unit and face (NetBox: dcim/svg/racks.py
 * draw_background), which returns here once the device is made.
 */
import { hasPermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import { DEFAULTS, type ElevationParams, type Face } from '../../apps/dcim/elevation/params.js';
import { addDeviceUrl } from '../../apps/dcim/elevation/add-device-url.js';
import { reservationsOf, visibleDeviceIds } from '../../apps/dcim/elevation/rack-contents.js';
import { renderElevationSvg } from '../../apps/dcim/elevation/svg.js';
import { mountedDevices, type MountedDevice } from '../../apps/dcim/elevation/units.js';
import type { Represented } from '../components/cells.js';
import { type Html, trusted } from '../html.js';
import { objectPath } from '../model-pages/page-shell.js';

const PARAMS: ElevationParams = {
  ...DEFAULTS,
  q: null,
  face: 'front',
  render: 'svg',
  exclude: null,
  expandDevices: false,
  includeImages: false,
};

/** not NetBox's limit (100 U, the model's maximum): a stored height past it draws this many units */
const MAX_UNITS = 1000;

export const FACE_LABEL: Record<Face, string> = { front: 'Front', rear: 'Rear' };

/** a rack as its REST representation shows it: what the drawing needs */
type RackObj = Represented;

const idOf = (v: unknown) => (v && typeof v === 'object' ? Number((v as Represented).id) : null);

/** the rack's height as drawn: a stored height below 0 or past MAX_UNITS (direct writes) is clamped */
function heightOf(rack: RackObj): number {
  const n = Math.trunc(Number(rack.u_height));
  return Number.isFinite(n) ? Math.min(Math.max(n, 0), MAX_UNITS) : 0;
}

/**
 * The drawings of `faces` of each rack, by rack id and face. `back(rack)` is where the add form
 * returns to after creating a device.
 */
export async function drawRacks(
  rc: RequestContext,
  racks: RackObj[],
  faces: Face[],
  back: (rack: RackObj) => string,
): Promise<Map<number, Map<Face, Html>>> {
  const out = new Map<number, Map<Face, Html>>();
  if (!racks.length) return out;
  const registry = rc.app.registry;
  const deviceModel = registry.get('dcim.device');
  const reservationModel = registry.get('dcim.rackreservation');
  const ids = racks.map((r) => Number(r.id));
  const visible = await visibleDeviceIds(rc, ids);
  // one face: only what takes space on it; both: every mounted device, split per face below
  const devices = await mountedDevices(rc, ids, faces.length === 1 ? faces[0]! : null, null, visible);
  const reservations = await reservationsOf(rc, ids, (id) => objectPath(reservationModel, id));
  const mayAdd = await hasPermission(rc, deviceModel, 'add');
  const byRack = new Map<number, MountedDevice[]>();
  for (const d of devices) byRack.set(d.rack_id, [...(byRack.get(d.rack_id) ?? []), d]);
  for (const rack of racks) {
    const id = Number(rack.id);
    const drawings = new Map<Face, Html>();
    for (const face of faces) {
      const svg = renderElevationSvg(
        {
          rack: {
            u_height: heightOf(rack),
            desc_units: rack.desc_units === true,
            // shown by the pages' reads (everyField); NetBox 4.1 numbers the units from it
            starting_unit: Number(rack.starting_unit) || 1,
          },
          face,
          devices: (byRack.get(id) ?? []).filter((d) => d.face === face || d.is_full_depth),
          reservations: reservations.get(id) ?? [],
          deviceUrl: (deviceId) => objectPath(deviceModel, deviceId),
          addUrl: mayAdd
            ? addDeviceUrl({ id, site: idOf(rack.site), location: idOf(rack.location) }, face, back(rack))
            : undefined,
        },
        { ...PARAMS, face },
        { id: `rack-${id}-${face}`, label: `${FACE_LABEL[face]} of rack ${String(rack.display ?? rack.name ?? id)}` },
      );
      // the renderer escapes every value it writes (svg.ts escapeXml)
      drawings.set(face, trusted(svg));
    }
    out.set(id, drawings);
  }
  return out;
}

/** the REST drawing of a face, for "Download SVG" */
export const svgHref = (rackId: unknown, face: Face) =>
  `/api/dcim/racks/${Number(rackId)}/elevation/?face=${face}&render=svg`;
