/**
 * A device's or virtual machine's primary IPv4/IPv6 address (reference 3.2 and 3.5): of the right
 * family, and assigned to one of the owner's interfaces (or be the NAT outside address of one),
 * else a 400 on the field. The owner's interfaces are described by an AssignedTarget (the same
 * description the IP address filters use), so devices and VMs share this one check.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { type AssignedTarget, DEVICE_INTERFACES } from '../ipam/relation-filters.js';
import type { Row } from '../../core/model/types.js';

/** what the "not assigned" message calls the owner: NetBox 3.4 says "this device" / "this VM" */
const NOUN: Record<string, string> = { dcim_device: 'device', virtualization_virtualmachine: 'VM' };

export interface OwnedAddress {
  id: number;
  address: string;
  family: number;
  /** assigned to one of the owner's interfaces, or the NAT outside address of one */
  on_owner: boolean;
}

/**
 * The addresses among `ids` (in id order), each with whether it sits on the owner's interfaces.
 * `chassis`: the device's virtual chassis, whose members' non-management interfaces count as the
 * device's own (NetBox 3.4 Device.clean: `vc_interfaces(if_master=False)`).
 */
export async function addressesOnOwner(
  rc: RequestContext,
  ids: number[],
  target: AssignedTarget,
  ownerId: unknown,
  chassis: unknown = null,
): Promise<OwnedAddress[]> {
  const own = sql`${sql.ref(`i.${target.parentColumn}`)} = ${ownerId ?? null}::bigint`;
  const owner =
    chassis == null
      ? own
      : sql`(${own} or (not i.mgmt_only and i.device_id in (select m.id from dcim_device m where m.virtual_chassis_id = ${chassis}::bigint)))`;
  const res = await sql<OwnedAddress>`
    select ip.id, ip.address::text as address, family(ip.address) as family,
      exists (
        select 1 from ${sql.table(target.table)} i
        where ${owner} and (
          (ip.assigned_object_type = ${target.type} and ip.assigned_object_id = i.id)
          or exists (select 1 from ipam_ipaddress inside where inside.id = ip.nat_inside_id
                     and inside.assigned_object_type = ${target.type} and inside.assigned_object_id = i.id))
      ) as on_owner
    from ipam_ipaddress ip where ip.id = any(${ids}::bigint[]) order by ip.id`.execute(rc.q);
  return res.rows;
}

export async function validatePrimaryIps(
  rc: RequestContext,
  data: Row,
  ownerId: unknown,
  target: AssignedTarget = DEVICE_INTERFACES,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const fields = [
    ['primary_ip4', 4],
    ['primary_ip6', 6],
  ] as const;
  const ids = fields
    .map(([field]) => data[`${field}_id`])
    .filter((v) => v != null)
    .map(Number);
  if (!ids.length) return errors;
  const chassis = target === DEVICE_INTERFACES ? (data.virtual_chassis_id ?? null) : null;
  const found = new Map((await addressesOnOwner(rc, ids, target, ownerId, chassis)).map((ip) => [Number(ip.id), ip]));
  for (const [field, family] of fields) {
    const ipId = data[`${field}_id`];
    if (ipId == null) continue;
    const ip = found.get(Number(ipId));
    if (!ip) continue; // a missing id was already reported by the related-object check
    const address = ip.address.includes('/') ? ip.address : `${ip.address}/${family === 4 ? 32 : 128}`;
    if (Number(ip.family) !== family) errors[field] = [`${address} is not an IPv${family} address.`];
    else if (!ip.on_owner)
      errors[field] = [
        `The specified IP address (${address}) is not assigned to this ${NOUN[target.parentTable] ?? 'object'}.`,
      ];
  }
  return errors;
}

/** NetBox: primary_ip is the IPv6 primary when set, else the IPv4 one (PREFER_IPV4 off) */
export function renderPrimaryIp(o: Record<string, unknown>): void {
  if ('primary_ip' in o) o.primary_ip = o.primary_ip6 ?? o.primary_ip4 ?? null;
}
