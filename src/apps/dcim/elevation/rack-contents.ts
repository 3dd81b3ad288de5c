/**
 * What an elevation draws besides the devices, read for one rack (the REST route) or for a page of
 * racks (the web's elevations), one statement each however many racks: which of their devices the
 * user may view, and their reservations.
 */
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../../../core/auth/permissions.js';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/model/types.js';
import type { Reservation } from './svg.js';

/** ids of the racks' devices the user may view, or null for all of them */
export async function visibleDeviceIds(rc: RequestContext, rackIds: number[]): Promise<Set<number> | null> {
  const deviceModel = rc.app.registry.get('dcim.device');
  if (!(await hasPermission(rc, deviceModel, 'view'))) return new Set();
  const scope = await requirePermission(rc, deviceModel, 'view');
  if (!scope) return null;
  if (!rackIds.length) return new Set();
  const res = await sql<{
    id: number;
  }>`select t.id from dcim_device as t where t.rack_id = any(${rackIds}::bigint[]) and ${scope}`.execute(rc.q);
  return new Set(res.rows.map((r) => Number(r.id)));
}

/**
 * The racks' reservations by rack id, each with its link (`url(id)`: the API's or the web page's).
 * Drawn whether or not the user may view reservations, as NetBox 3.4's drawing does.
 */
export async function reservationsOf(
  rc: RequestContext,
  rackIds: number[],
  url: (id: number) => string,
): Promise<Map<number, Reservation[]>> {
  const out = new Map<number, Reservation[]>();
  if (!rackIds.length) return out;
  const res = await sql<Row>`select id, rack_id, units, description from dcim_rackreservation
    where rack_id = any(${rackIds}::bigint[]) order by id`.execute(rc.q);
  for (const r of res.rows) {
    const rackId = Number(r.rack_id);
    const list = out.get(rackId) ?? [];
    list.push({
      id: Number(r.id),
      units: ((r.units as unknown[] | null) ?? []).map(Number).filter(Number.isFinite),
      description: String(r.description ?? ''),
      url: url(Number(r.id)),
    });
    out.set(rackId, list);
  }
  return out;
}
