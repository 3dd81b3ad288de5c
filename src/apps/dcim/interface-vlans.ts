/**
 * 802.1Q on interfaces (reference 3.2): tagged VLANs need mode `tagged`; every VLAN must be global
 * (no site) or belong to the interface's device's site.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';

type Row = Record<string, unknown>;

export async function validateVlans(rc: RequestContext, data: Row): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const tagged = (data.tagged_vlans as number[] | undefined) ?? [];
  if (tagged.length && data.mode !== 'tagged') {
    errors.tagged_vlans = ['Tagged VLANs can be set only when the 802.1Q mode is tagged.'];
  }
  const untagged = data.mode ? (data.untagged_vlan_id as number | null | undefined) : null;
  const ids = [...(untagged != null ? [Number(untagged)] : []), ...tagged.map(Number)];
  if (!ids.length) return errors;
  const res = await sql<{ id: number; name: string; vid: number; site_id: number | null; device_site: number }>`
    select v.id, v.name, v.vid, v.site_id, d.site_id as device_site from ipam_vlan v
    cross join dcim_device d where d.id = ${data.device_id} and v.id = any(${ids}::bigint[])`.execute(rc.q);
  for (const v of res.rows) {
    if (v.site_id == null || Number(v.site_id) === Number(v.device_site)) continue;
    const field = untagged != null && Number(v.id) === Number(untagged) ? 'untagged_vlan' : 'tagged_vlans';
    (errors[field] ??= []).push(`VLAN ${v.name} (${v.vid}) belongs to another site; use a VLAN of the device's site or a global one.`);
  }
  return errors;
}

export async function clearTaggedVlans(rc: RequestContext, interfaceId: number): Promise<void> {
  await sql`delete from dcim_interface_tagged_vlans where interface_id = ${interfaceId}`.execute(rc.q);
}
