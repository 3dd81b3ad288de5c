/**
 * Where an empty unit of a drawing links: the web interface's add-device form at that unit, filled
 * in with the rack's site, location, the rack and the face (NetBox: dcim/svg/racks.py
 * draw_background, the `dcim:device_add` URL with those parameters). The form reads them by field
 * name (web/model-pages/form-input.ts initialFromQuery); `return_url` brings the user back after.
 */
import type { Face } from './params.js';

export interface RackPlace {
  id: number;
  site: number | null;
  location: number | null;
}

/** the link of each empty unit of `face` of `rack`; the query is built once, only the unit varies */
export function addDeviceUrl(rack: RackPlace, face: Face, returnUrl?: string): (unit: number) => string {
  const query = new URLSearchParams();
  if (rack.site !== null) query.set('site', String(rack.site));
  if (rack.location !== null) query.set('location', String(rack.location));
  query.set('rack', String(rack.id));
  query.set('face', face);
  if (returnUrl) query.set('return_url', returnUrl);
  const prefix = `/dcim/devices/add/?${query.toString()}&position=`;
  return (unit) => `${prefix}${unit}`;
}
