/**
 * Virtual machines (reference 3.5): placement rules (site and/or cluster, cluster site, host
 * device), the VM role, case-insensitive names per cluster and tenant, natural order, counts on
 * related objects, filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeCluster,
  makeClusterGroup,
  makeClusterType,
  makeDevice,
  makeSite,
  makeVm,
  makeVmInterface,
} from '../../factories/index.js';

let t: TestApp;
let site: Json;
let cluster: Json;
beforeAll(async () => {
  t = await makeTestApp();
  site = await makeSite(t);
  cluster = await makeCluster(t, { site: site.id });
});
afterAll(async () => t.close());

const post = (body: Json) => t.post('/api/virtualization/virtual-machines/', body);
const role = (vmRole: boolean) =>
  make(t, '/api/dcim/device-roles/', { name: uniq('role'), slug: uniq('role'), vm_role: vmRole });

describe('placement', () => {
  it('needs a site and/or a cluster', async () => {
    const res = await post({ name: uniq('vm') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ cluster: ['A virtual machine must be assigned to a site and/or cluster.'] });
    expect((await post({ name: uniq('vm'), site: site.id })).statusCode).toBe(201);
  });

  it("takes a cluster only in the VM's site (a cluster without a site only VMs without one)", async () => {
    const other = await makeSite(t);
    const res = await post({ name: uniq('vm'), site: other.id, cluster: cluster.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      cluster: [`The selected cluster (${cluster.name}) is not assigned to this site (${other.name}).`],
    });
    // NetBox 3.4 VirtualMachine.clean(): the cluster's site (none) differs from the VM's
    const loose = await makeCluster(t);
    const sited = await post({ name: uniq('vm'), site: other.id, cluster: loose.id });
    expect(sited.json()).toEqual({
      cluster: [`The selected cluster (${loose.name}) is not assigned to this site (${other.name}).`],
    });
    expect((await post({ name: uniq('vm'), cluster: loose.id })).statusCode).toBe(201);
    expect((await post({ name: uniq('vm'), site: site.id, cluster: cluster.id })).statusCode).toBe(201);
  });

  it('takes a host device only together with its cluster', async () => {
    const host = await makeDevice(t, { site: site.id, cluster: cluster.id });
    const stranger = await makeDevice(t, { site: site.id });
    const noCluster = await post({ name: uniq('vm'), site: site.id, device: host.id });
    expect(noCluster.json()).toEqual({ device: ['Must specify a cluster when assigning a host device.'] });
    const elsewhere = await post({ name: uniq('vm'), cluster: cluster.id, device: stranger.id });
    expect(elsewhere.json()).toEqual({
      device: [`The selected device (${stranger.name}) is not assigned to this cluster (${cluster.name}).`],
    });
    const ok = await post({ name: uniq('vm'), cluster: cluster.id, device: host.id });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().device).toMatchObject({ id: host.id, name: host.name });
    // the host is protected while it runs the VM
    expect((await t.del(`/api/dcim/devices/${host.id}/`)).statusCode).toBe(409);
  });

  it('takes only roles meant for VMs', async () => {
    const [vmRole, deviceOnly] = [await role(true), await role(false)];
    const bad = await post({ name: uniq('vm'), cluster: cluster.id, role: deviceOnly.id });
    expect(bad.json()).toEqual({ role: [`device role instance with id ${deviceOnly.id} does not exist.`] });
    const ok = await post({ name: uniq('vm'), cluster: cluster.id, role: vmRole.id });
    expect(ok.json().role).toMatchObject({ id: vmRole.id, slug: vmRole.slug });
    expect((await t.get(`/api/dcim/device-roles/${vmRole.id}/`)).json().virtualmachine_count).toBe(1);
  });
});

describe('fields', () => {
  it('renders the full form with NetBox 3.4 fields and validates numbers and local context data', async () => {
    const vm = await makeVm(t, {
      cluster: cluster.id,
      vcpus: 2.5,
      memory: 4096,
      disk: 40,
      status: 'staged',
      local_context_data: { a: 1 },
    });
    expect(vm).toMatchObject({
      vcpus: 2.5,
      memory: 4096,
      disk: 40,
      status: { value: 'staged', label: 'Staged' },
      primary_ip: null,
      local_context_data: { a: 1 },
    });
    for (const k of [
      'site',
      'cluster',
      'device',
      'role',
      'tenant',
      'platform',
      'primary_ip4',
      'primary_ip6',
      'comments',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
    ]) {
      expect(vm, k).toHaveProperty(k);
    }
    const bad = await t.patch(`/api/virtualization/virtual-machines/${vm.id}/`, {
      vcpus: 0,
      memory: -1,
      local_context_data: [1],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      vcpus: ['Ensure this value is greater than or equal to 0.01.'],
      memory: ['Ensure this value is greater than or equal to 0.'],
      local_context_data: ['JSON data must be in object form.'],
    });
  });

  it('orders names naturally', async () => {
    const c = await makeCluster(t);
    for (const n of ['web10', 'web2', 'web1']) await makeVm(t, { name: n, cluster: c.id });
    const names = (await t.get(`/api/virtualization/virtual-machines/?cluster_id=${c.id}`))
      .json()
      .results.map((r: Json) => r.name);
    expect(names).toEqual(['web1', 'web2', 'web10']);
  });
});

describe('names', () => {
  it('are unique per cluster case-insensitively, and per cluster and tenant', async () => {
    const c = await makeCluster(t);
    const tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('ten'), slug: uniq('ten') });
    await makeVm(t, { name: 'App01', cluster: c.id });
    const dup = await post({ name: 'app01', cluster: c.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ __all__: ['Virtual machine name must be unique per cluster.'] });
    await makeVm(t, { name: 'App01', cluster: c.id, tenant: tenant.id });
    const dupTenant = await post({ name: 'APP01', cluster: c.id, tenant: tenant.id });
    expect(dupTenant.json()).toEqual({
      __all__: ['Constraint “virtualization_virtualmachine_unique_name_cluster_tenant” is violated.'],
    });
    // another cluster, or no cluster at all, is another namespace
    await makeVm(t, { name: 'App01', cluster: (await makeCluster(t)).id });
    await makeVm(t, { name: 'App01', site: site.id });
    await makeVm(t, { name: 'App01', site: site.id });
  });
});

describe('filters', () => {
  it('filters by cluster, its group and type, site, region, role, platform, device, tenant, status, numbers', async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('r'), slug: uniq('r') });
    const s = await makeSite(t, { region: region.id });
    const [type, group] = [await makeClusterType(t), await makeClusterGroup(t)];
    const c = await makeCluster(t, { type: type.id, group: group.id, site: s.id });
    const host = await makeDevice(t, { site: s.id, cluster: c.id });
    const r = await role(true);
    const platform = await make(t, '/api/dcim/platforms/', { name: uniq('p'), slug: uniq('p') });
    const tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('ten'), slug: uniq('ten') });
    const vm = await makeVm(t, {
      cluster: c.id,
      site: s.id,
      device: host.id,
      role: r.id,
      platform: platform.id,
      tenant: tenant.id,
      status: 'failed',
      vcpus: 8,
      memory: 1024,
    });
    const plain = await makeVm(t, { cluster: c.id, vcpus: 1 });
    const list = async (q: string) => ids((await t.get(`/api/virtualization/virtual-machines/?${q}`)).json());
    expect(await list(`cluster_id=${c.id}&ordering=id`)).toEqual([vm.id, plain.id]);
    expect(await list(`cluster=${c.name}&ordering=id`)).toEqual([vm.id, plain.id]);
    expect(await list(`cluster_group=${group.slug}&vcpus__gte=4`)).toEqual([vm.id]);
    expect(await list(`cluster_type_id=${type.id}&status=failed`)).toEqual([vm.id]);
    // both: a VM in a cluster stands in the cluster's site (NetBox 3.4 VirtualMachine.clean())
    expect(await list(`region=${region.slug}&ordering=id`)).toEqual([vm.id, plain.id]);
    expect(await list(`site_id=${s.id}&ordering=id`)).toEqual([vm.id, plain.id]);
    expect(await list(`role=${r.slug}`)).toEqual([vm.id]);
    expect(await list(`platform_id=${platform.id}`)).toEqual([vm.id]);
    expect(await list(`device_id=${host.id}`)).toEqual([vm.id]);
    expect(await list(`device=${host.name}`)).toEqual([vm.id]);
    expect(await list(`tenant=${tenant.slug}`)).toEqual([vm.id]);
    expect(await list(`cluster_id=${c.id}&memory__lt=2048`)).toEqual([vm.id]);
    expect(await list(`cluster_id=${c.id}&local_context_data=false&ordering=id`)).toEqual([vm.id, plain.id]);
    expect((await t.get('/api/virtualization/virtual-machines/?status=bogus')).statusCode).toBe(400);
    expect((await t.get(`/api/dcim/platforms/${platform.id}/`)).json().virtualmachine_count).toBe(1);
    expect((await t.get(`/api/tenancy/tenants/${tenant.id}/`)).json().virtualmachine_count).toBe(1);
  });

  it('filters by the MAC address of an interface', async () => {
    const vm = await makeVm(t);
    await makeVmInterface(t, vm, { mac_address: '00:aa:bb:cc:dd:01' });
    const list = async (q: string) => ids((await t.get(`/api/virtualization/virtual-machines/?${q}`)).json());
    expect(await list('mac_address=00-AA-BB-CC-DD-01')).toEqual([vm.id]);
    expect(await list('mac_address__ic=cc:dd:01')).toEqual([vm.id]);
  });
});

describe('DELETE /api/virtualization/virtual-machines/<id>/', () => {
  it('deletes its interfaces (logging each) and their addresses with it', async () => {
    const vm = await makeVm(t);
    const [a, b] = [await makeVmInterface(t, vm), await makeVmInterface(t, vm)];
    const ip = await make(t, '/api/ipam/ip-addresses/', {
      address: '198.51.100.7/24',
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: a.id,
    });
    const res = await t.del(`/api/virtualization/virtual-machines/${vm.id}/`);
    expect(res.statusCode).toBe(204);
    const changes = (
      await t.get(`/api/extras/object-changes/?request_id=${res.headers['x-request-id']}&limit=50`)
    ).json().results;
    const logged = changes.map((c: Json) => `${c.action.value} ${c.changed_object_type} ${c.changed_object_id}`).sort();
    expect(logged).toEqual(
      [
        `delete ipam.ipaddress ${ip.id}`,
        `delete virtualization.virtualmachine ${vm.id}`,
        `delete virtualization.vminterface ${a.id}`,
        `delete virtualization.vminterface ${b.id}`,
      ].sort(),
    );
    expect((await t.get(`/api/virtualization/interfaces/${a.id}/`)).statusCode).toBe(404);
  });
});
