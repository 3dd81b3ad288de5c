/**
 * A device's `parent_device` (NetBox 3.4 DeviceSerializer.get_parent_device): the device whose
 * bay holds it, nested, with that bay as `device_bay`; null for a device in no bay.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { fetchRowsById, type Ids, idIn } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { detailUrl } from '../../core/urls.js';
import type { Row } from '../../core/model/types.js';

/** the bays holding the devices of a page (their ids as a sub-select or a list) */
export function holdingBaysSql(ids: Ids): RawBuilder<unknown> {
  return sql`select id, name, device_id, installed_device_id from dcim_devicebay where ${idIn(sql.ref('installed_device_id'), ids)}`;
}

/** device id -> its parent_device value, from the bays holding a page's devices (holdingBaysSql): their devices, nested */
export async function parentDevices(rc: RequestContext, bays: Row[]): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  if (!bays.length) return out;
  const model = rc.app.registry.get('dcim.device');
  const parents = await render(
    rc,
    model,
    await fetchRowsById(rc, model, [...new Set(bays.map((b) => Number(b.device_id)))]),
    'nested',
  );
  const byId = new Map(parents.map((p) => [Number(p.id), p]));
  const bayModel = rc.app.registry.get('dcim.devicebay');
  for (const b of bays) {
    const parent = byId.get(Number(b.device_id));
    if (!parent) continue;
    out.set(Number(b.installed_device_id), {
      ...parent,
      device_bay: {
        id: Number(b.id),
        url: detailUrl(rc.baseUrl, bayModel, b.id),
        display: String(b.name),
        name: b.name,
      },
    });
  }
  return out;
}
