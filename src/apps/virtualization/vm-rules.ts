/**
 * Validation of a virtual machine against its surroundings (reference 3.5, NetBox 3.4
 * VirtualMachine.clean()): a site and/or a cluster, the VM in its cluster's site, a host device
 * only inside the VM's cluster, a role meant for VMs, primary addresses on the VM's interfaces.
 * `data` is the merged row (stored + written columns).
 */
import { inUnitOf } from '../../core/model/dialect.js';
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { Row } from '../../core/model/types.js';
import { rowById } from '../../core/crud/row-by-id.js';
import { validatePrimaryIps } from '../dcim/device-primary-ip.js';
import { VM_INTERFACES } from '../ipam/relation-filters.js';

type Errors = Record<string, string[]>;

/** the total size of a machine's virtual disks, or null when it has none (NetBox 3.7) */
export async function diskTotal(rc: RequestContext, vmId: unknown): Promise<number | null> {
  const res = await sql<{
    total: string | null;
  }>`select sum(size) as total from virtualization_virtualdisk where virtual_machine_id = ${Number(vmId)}`.execute(
    rc.q,
  );
  const total = res.rows[0]?.total;
  return total == null ? null : Number(total);
}

/**
 * NetBox 3.4 VirtualMachine.clean(): a VM in a cluster and without a site takes the cluster's site,
 * on create and on every update (a VM stored without one gets it at its next write). `data` holds
 * the written columns, `before` the stored row; runs once validation passed (a VM with a site
 * and a cluster of another site was refused).
 */
export async function siteFromCluster(rc: RequestContext, data: Row, before: Row | null): Promise<void> {
  const clusterId = 'cluster_id' in data ? data.cluster_id : before?.cluster_id;
  const siteId = 'site_id' in data ? data.site_id : before?.site_id;
  if (clusterId == null || siteId != null) return;
  const cluster = await rowById(rc, 'virtualization_cluster', clusterId, ['site_id']);
  if (cluster?.site_id != null) data.site_id = cluster.site_id;
}

export async function validateVirtualMachine(rc: RequestContext, data: Row, before: Row | null): Promise<Errors> {
  const errors: Errors = {};
  // NetBox 3.7 VirtualMachine.clean(): with virtual disks, `disk` is their total (a blank one is filled in)
  if (before && data.disk != null) {
    const total = await diskTotal(rc, before.id);
    if (total && Number(data.disk) !== total) {
      // both figures in the unit of the client's dialect (stored in MB, 3.4 speaks GB)
      const f = rc.app.registry.get('virtualization.virtualmachine').fields.disk!;
      const shown = (v: number) => String(inUnitOf(f, v, rc.dialect));
      errors.disk = [
        `The specified disk size (${shown(Number(data.disk))}) must match the aggregate size of assigned virtual disks (${shown(total)}).`,
      ];
    }
  }
  if (data.site_id == null && data.cluster_id == null) {
    errors.cluster = ['A virtual machine must be assigned to a site and/or cluster.'];
  }
  const cluster =
    data.cluster_id == null
      ? undefined
      : await rowById(rc, 'virtualization_cluster', data.cluster_id, ['name', 'site_id']);
  // NetBox 3.4 VirtualMachine.clean(): a VM with a site and a cluster must share the cluster's site,
  // so a cluster without a site takes only VMs without one (siteFromCluster fills those)
  if (cluster && data.site_id != null && Number(cluster.site_id ?? 0) !== Number(data.site_id)) {
    const site = await rowById(rc, 'dcim_site', data.site_id, ['name']);
    errors.cluster = [
      `The selected cluster (${String(cluster.name)}) is not assigned to this site (${String(site?.name)}).`,
    ];
  }
  if (data.device_id != null) {
    if (!cluster) {
      errors.device = ['Must specify a cluster when assigning a host device.'];
    } else {
      const device = await rowById(rc, 'dcim_device', data.device_id, ['name', 'cluster_id']);
      if (device && Number(device.cluster_id) !== Number(data.cluster_id)) {
        errors.device = [
          `The selected device (${String(device.name ?? data.device_id)}) is not assigned to this cluster (${String(cluster.name)}).`,
        ];
      }
    }
  }
  if (data.role_id != null) {
    // NetBox 3.4: the role is limited to roles with vm_role (limit_choices_to), Django's wording
    const role = await rowById(rc, 'dcim_devicerole', data.role_id, ['vm_role']);
    if (role && !role.vm_role) errors.role = [`device role instance with id ${String(data.role_id)} does not exist.`];
  }
  // a new VM has no interfaces, so it cannot have a primary address yet
  return { ...errors, ...(await validatePrimaryIps(rc, data, before?.id ?? null, VM_INTERFACES)) };
}
