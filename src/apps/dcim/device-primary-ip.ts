/**
 * A device's or virtual machine's primary IPv4/IPv6 address (reference 3.2 and 3.5): of the right
 * family, and assigned to one of the owner's interfaces (or be the NAT outside address of one),
 * else a 400 on the field. The owner's interfaces are described by an AssignedTarget (the same
 * description the IP address filters use), so devices and VMs share this one check.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { type AssignedTarget, DEVICE_INTERFACES } from '../ipam/relation-filters.js';

type Row = Record<string, unknown>;

/** what the "not assigned" message calls the owner: NetBox 3.4 says "this device" / "this VM" */
const NOUN: Record<string, string> = { dcim_device: 'device', virtualization_virtualmachine: 'VM' };

export async function validatePrimaryIps(
  rc: RequestContext,
  data: Row,
  ownerId: unknown,
  target: AssignedTarget = DEVICE_INTERFACES,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const ifaces = sql.table(target.table);
  const owner = sql.ref(`i.${target.parentColumn}`);
  for (const [field, family] of [['primary_ip4', 4], ['primary_ip6', 6]] as const) {
    const ipId = data[`${field}_id`];
    if (ipId == null) continue;
    const res = await sql<{ address: string; family: number; on_owner: boolean }>`
      select ip.address::text as address, family(ip.address) as family,
        exists (
          select 1 from ${ifaces} i
          where ${owner} = ${ownerId ?? null}::bigint and (
            (ip.assigned_object_type = ${target.type} and ip.assigned_object_id = i.id)
            or exists (select 1 from ipam_ipaddress inside where inside.id = ip.nat_inside_id
                       and inside.assigned_object_type = ${target.type} and inside.assigned_object_id = i.id))
        ) as on_owner
      from ipam_ipaddress ip where ip.id = ${ipId}`.execute(rc.q);
    const ip = res.rows[0];
    if (!ip) continue; // a missing id was already reported by the related-object check
    const address = ip.address.includes('/') ? ip.address : `${ip.address}/${family === 4 ? 32 : 128}`;
    if (Number(ip.family) !== family) errors[field] = [`${address} is not an IPv${family} address.`];
    else if (!ip.on_owner) errors[field] = [`The specified IP address (${address}) is not assigned to this ${NOUN[target.parentTable] ?? 'object'}.`];
  }
  return errors;
}
