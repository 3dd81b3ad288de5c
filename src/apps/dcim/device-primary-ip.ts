/**
 * A device's primary IPv4/IPv6 address (reference 3.2): of the right family, and assigned to one
 * of the device's interfaces (or be the NAT outside address of one), else a 400 on the field.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';

type Row = Record<string, unknown>;

export async function validatePrimaryIps(rc: RequestContext, data: Row, deviceId: unknown): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const [field, family] of [['primary_ip4', 4], ['primary_ip6', 6]] as const) {
    const ipId = data[`${field}_id`];
    if (ipId == null) continue;
    const res = await sql<{ address: string; family: number; on_device: boolean }>`
      select ip.address::text as address, family(ip.address) as family,
        exists (
          select 1 from dcim_interface i
          where i.device_id = ${deviceId ?? null}::bigint and (
            (ip.assigned_object_type = 'dcim.interface' and ip.assigned_object_id = i.id)
            or exists (select 1 from ipam_ipaddress inside where inside.id = ip.nat_inside_id
                       and inside.assigned_object_type = 'dcim.interface' and inside.assigned_object_id = i.id))
        ) as on_device
      from ipam_ipaddress ip where ip.id = ${ipId}`.execute(rc.q);
    const ip = res.rows[0];
    if (!ip) continue; // a missing id was already reported by the related-object check
    const address = ip.address.includes('/') ? ip.address : `${ip.address}/${family === 4 ? 32 : 128}`;
    if (Number(ip.family) !== family) errors[field] = [`${address} is not an IPv${family} address.`];
    else if (!ip.on_device) errors[field] = [`The specified IP address (${address}) is not assigned to this device.`];
  }
  return errors;
}
