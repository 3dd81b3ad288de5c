/**
 * NetBox 4.4's `bridge_interfaces` of a device interface (#20953, read-only, 4.4 dialect only): the
 * interfaces whose `bridge` it is, nested, in NetBox's interface order (device, then name).
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { FieldDef, Row } from '../../core/model/types.js';
import { type Ids, idIn } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { naturalColumn } from '../../core/query/ordering.js';

export function bridgeInterfacesField(): FieldDef {
  return {
    kind: 'computed',
    readOnly: true,
    label: 'bridge interfaces',
    dialect: '4.4',
    shape: { type: 'array', items: { $model: 'dcim.interface' } },
  };
}

/** ModelDef.representRows: the members of a page's bridges */
export const bridgeInterfaceRows = {
  model: 'dcim.interface',
  select: (ids: Ids): RawBuilder<unknown> => sql`select * from dcim_interface where ${idIn(sql.ref('bridge_id'), ids)}`,
};

/** fills `bridge_interfaces` of a page of full representations */
export async function representBridgeInterfaces(
  rc: RequestContext,
  rows: Row[],
  out: Row[],
  mode: string,
  members: () => Promise<Row[]>,
): Promise<void> {
  if (mode !== 'full' || !rows.length || !('bridge_interfaces' in out[0]!)) return;
  const model = rc.app.registry.get('dcim.interface');
  const found = await members();
  const nested = await render(rc, model, found, 'nested');
  const order = found.map((r, i) => ({ r, shown: nested[i]! }));
  // NetBox orders interfaces by device, then name naturally (the stored natural key, in "C" order)
  order.sort((a, b) => Number(a.r.device_id) - Number(b.r.device_id) || byNaturalName(a.r, b.r));
  const byBridge = new Map<number, Row[]>();
  for (const { r, shown } of order) {
    const list = byBridge.get(Number(r.bridge_id)) ?? [];
    list.push(shown);
    byBridge.set(Number(r.bridge_id), list);
  }
  rows.forEach((r, i) => {
    out[i]!.bridge_interfaces = byBridge.get(Number(r.id)) ?? [];
  });
}

const NATURAL = naturalColumn('name');

function byNaturalName(a: Row, b: Row): number {
  const [x, y] = [String(a[NATURAL]), String(b[NATURAL])];
  return x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id);
}
