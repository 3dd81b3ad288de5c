/**
 * What an L2VPN termination adds to the objects it terminates (NetBox 3.4 interfaces, VM interfaces
 * and VLANs): the read-only `l2vpn_termination` (nested, or null) and the `l2vpn_id` / `l2vpn`
 * filters (`l2vpn` by the L2VPN's identifier, as NetBox 3.4's InterfaceFilterSet has it).
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import type { Cond } from '../../core/query/lookups.js';
import { type Ids, idIn } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

export const l2vpnTerminationField = (): FieldDef => ({
  kind: 'computed',
  readOnly: true,
  label: 'L2VPN termination',
  shape: { $model: 'vpn.l2vpntermination', nullable: true },
});

export function l2vpnFilters(type: string): Record<string, CustomFilter> {
  const match = (ids: Cond) => sql`t.id in (select x.assigned_object_id from vpn_l2vpntermination x
    where x.assigned_object_type = ${type} and x.l2vpn_id in ${ids})`;
  return {
    l2vpn_id: idSetFilter({ param: 'l2vpn_id', target: 'vpn.l2vpn', byId: true, match }),
    l2vpn: idSetFilter({ param: 'l2vpn', target: 'vpn.l2vpn', key: 'identifier', match }),
  };
}

/** the terminations of objects of `type` (a page's ids as a sub-select, or a list): ModelDef.representRows */
export function l2vpnTerminationRows(type: string): { model: string; select: (ids: Ids) => RawBuilder<unknown> } {
  return {
    model: 'vpn.l2vpntermination',
    select: (ids) => sql`select * from vpn_l2vpntermination where assigned_object_type = ${sql.lit(type)}
      and ${idIn(sql.ref('assigned_object_id'), ids)}`,
  };
}

/**
 * fills `l2vpn_termination` of a page of full representations from `terminations` (the hook's
 * `readRows('l2vpn_termination')`, declared with l2vpnTerminationRows): one nested render
 */
export async function representL2vpnTermination(
  rc: RequestContext,
  rows: Row[],
  out: Row[],
  mode: string,
  terminations: () => Promise<Row[]>,
): Promise<void> {
  if (mode !== 'full' || !rows.length || !('l2vpn_termination' in out[0]!)) return;
  const model = rc.app.registry.find('vpn.l2vpntermination');
  if (!model) return;
  const found = await terminations();
  const nested = await render(rc, model, found, 'nested');
  const byObject = new Map(found.map((r, i) => [Number(r.assigned_object_id), nested[i]!]));
  rows.forEach((r, i) => {
    out[i]!.l2vpn_termination = byObject.get(Number(r.id)) ?? null;
  });
}
