/** Builders of the virtualization app: clusters (with types and groups), VMs and their interfaces. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeClusterType = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/virtualization/cluster-types/', { ...named('ctype'), ...extra });
export const makeClusterGroup = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/virtualization/cluster-groups/', { ...named('cgroup'), ...extra });

export async function makeCluster(t: TestApp, extra: Json = {}): Promise<Json> {
  const type = extra.type ?? (await makeClusterType(t)).id;
  return make(t, '/api/virtualization/clusters/', { name: uniq('cluster'), ...extra, type });
}

/** a VM in a new cluster unless a cluster or site is given */
export async function makeVm(t: TestApp, extra: Json = {}): Promise<Json> {
  const placed = 'cluster' in extra || 'site' in extra;
  const cluster = placed ? {} : { cluster: (await makeCluster(t)).id };
  return make(t, '/api/virtualization/virtual-machines/', { name: uniq('vm'), ...cluster, ...extra });
}

export async function makeVmInterface(t: TestApp, vm: Json, extra: Json = {}): Promise<Json> {
  return make(t, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: uniq('eth'), ...extra });
}

/** the assignment fields of an address on a VM interface */
export const onVmInterface = (iface: Json) => ({
  assigned_object_type: 'virtualization.vminterface',
  assigned_object_id: iface.id,
});
