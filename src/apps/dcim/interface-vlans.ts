/**
 * 802.1Q on interfaces (reference 3.2 and 3.5), for device and VM interfaces alike: tagged VLANs
 * need mode `tagged`; every VLAN must be global (no site) or belong to the site of the
 * interface's owner (device or virtual machine; a VM without a site takes global VLANs only).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { DEVICE_INTERFACE_OWNER, type InterfaceOwner } from './interface-rules.js';
import type { CustomFilter, Row, WriteHookArgs } from '../../core/model/types.js';
import { parseIds } from '../../core/query/filter-blocks.js';

export async function validateVlans(
  rc: RequestContext,
  data: Row,
  owner: InterfaceOwner = DEVICE_INTERFACE_OWNER,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const tagged = (data.tagged_vlans as number[] | undefined) ?? [];
  if (tagged.length && data.mode !== 'tagged') {
    errors.tagged_vlans = ['Tagged VLANs can be set only when the 802.1Q mode is tagged.'];
  }
  const untagged = data.mode ? (data.untagged_vlan_id as number | null | undefined) : null;
  const ids = [...(untagged != null ? [Number(untagged)] : []), ...tagged.map(Number)];
  if (!ids.length) return errors;
  const res = await sql<{ id: number; name: string; vid: number; site_id: number | null; owner_site: number | null }>`
    select v.id, v.name, v.vid, v.site_id, o.site_id as owner_site from ipam_vlan v
    cross join ${sql.table(owner.parentTable)} o where o.id = ${data[owner.parentColumn]} and v.id = any(${ids}::bigint[])`.execute(
    rc.q,
  );
  for (const v of res.rows) {
    if (v.site_id == null || (v.owner_site != null && Number(v.site_id) === Number(v.owner_site))) continue;
    const field = untagged != null && Number(v.id) === Number(untagged) ? 'untagged_vlan' : 'tagged_vlans';
    (errors[field] ??= []).push(
      `VLAN ${v.name} (${v.vid}) belongs to another site; use a VLAN of the ${owner.noun}'s site or a global one.`,
    );
  }
  return errors;
}

async function clearTaggedVlans(
  rc: RequestContext,
  interfaceId: number,
  owner: InterfaceOwner = DEVICE_INTERFACE_OWNER,
): Promise<void> {
  const { table, column } = owner.taggedVlans;
  await sql`delete from ${sql.table(table)} where ${sql.ref(column)} = ${interfaceId}`.execute(rc.q);
}

/** the mode an interface will have: the one written, else the stored one */
export function modeOf(data: Row, before: Row | null): unknown {
  return 'mode' in data ? data.mode : before?.mode;
}

/**
 * NetBox: no 802.1Q mode, no untagged VLAN (prepare hook of interface models). The mode is the one
 * the interface will have: an update that does not name it keeps the stored one, and its VLAN.
 */
export function dropUntaggedWithoutMode({ data, before }: Pick<WriteHookArgs, 'data' | 'before'>): void {
  const mode = modeOf(data, before);
  if (mode === '' || mode == null) data.untagged_vlan_id = null;
}

/**
 * NetBox: tagged VLANs only in tagged mode; leaving it clears them (afterUpdate hook). Only an
 * interface that was in tagged mode can have any (validation refuses them in another mode), so a
 * create, or an update of an interface that was not tagged, has nothing to clear (a bulk
 * create of 100 interfaces would otherwise spend 100 statements here).
 */
export async function syncTaggedVlans(
  rc: RequestContext,
  row: Row,
  before: Row | null,
  owner: InterfaceOwner = DEVICE_INTERFACE_OWNER,
): Promise<void> {
  if (before?.mode === 'tagged' && row.mode !== 'tagged') await clearTaggedVlans(rc, Number(row.id), owner);
}

/**
 * NetBox `vlan_id` / `vlan` (by VID): interfaces carrying one of the VLANs untagged or tagged, or
 * (NetBox 4.2) as their Q-in-Q service VLAN. A blank value filters nothing.
 */
export function assignedVlanFilter(owner: InterfaceOwner, param: string, byId: boolean): CustomFilter {
  const { table, column } = owner.taggedVlans;
  return {
    type: 'integer',
    async build(values, _lookup, { alias }) {
      const keys = parseIds(
        param,
        values.filter((v) => v.trim() !== ''),
      );
      if (!keys.length) return null;
      const vlans = byId
        ? sql`select unnest(${keys}::bigint[])`
        : sql`select v.id from ipam_vlan v where v.vid = any(${keys}::bigint[])`;
      const ref = (c: string) => sql.ref(`${alias}.${c}`);
      return sql`(${ref('untagged_vlan_id')} in (${vlans}) or ${ref('qinq_svlan_id')} in (${vlans})
        or ${ref('id')} in (select ${sql.ref(`t.${column}`)} from ${sql.table(table)} t where t.vlan_id in (${vlans})))`;
    },
  };
}
