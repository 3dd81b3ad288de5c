/**
 * Clusters, their types and groups (reference 3.5), and devices as cluster hosts: the app root,
 * counts, uniqueness, the site rules on both sides, PROTECT / SET_NULL on delete, filters.
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
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('GET /api/virtualization/', () => {
  it('lists the six endpoints', async () => {
    const res = await t.get('/api/virtualization/');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual([
      'cluster-groups',
      'cluster-types',
      'clusters',
      'interfaces',
      'virtual-disks',
      'virtual-machines',
    ]);
    expect(res.json().interfaces).toMatch(/\/api\/virtualization\/interfaces\/$/);
  });
});

describe('clusters', () => {
  it('renders type, group, site nested and counts devices and VMs', async () => {
    const [type, group, site] = [await makeClusterType(t), await makeClusterGroup(t), await makeSite(t)];
    const c = await makeCluster(t, { type: type.id, group: group.id, site: site.id, status: 'planned' });
    await makeDevice(t, { site: site.id, cluster: c.id });
    await makeVm(t, { cluster: c.id });
    const body = (await t.get(`/api/virtualization/clusters/${c.id}/`)).json();
    expect(body).toMatchObject({
      type: { id: type.id, name: type.name, slug: type.slug },
      group: { id: group.id, slug: group.slug },
      site: { id: site.id },
      status: { value: 'planned', label: 'Planned' },
      device_count: 1,
      virtualmachine_count: 1,
    });
    const brief = (await t.get(`/api/virtualization/clusters/?id=${c.id}&brief=1`)).json().results[0];
    expect(Object.keys(brief).sort()).toEqual(['display', 'id', 'name', 'url', 'virtualmachine_count']);
    expect((await t.get(`/api/virtualization/cluster-types/${type.id}/`)).json().cluster_count).toBe(1);
    expect((await t.get(`/api/virtualization/cluster-groups/${group.id}/`)).json().cluster_count).toBe(1);
  });

  it('keeps names unique per group and per site, not globally', async () => {
    const [group, site] = [await makeClusterGroup(t), await makeSite(t)];
    const name = uniq('dup');
    await makeCluster(t, { name, group: group.id });
    await makeCluster(t, { name, site: site.id });
    await makeCluster(t, { name });
    const inGroup = await t.post('/api/virtualization/clusters/', {
      name,
      type: (await makeClusterType(t)).id,
      group: group.id,
    });
    expect(inGroup.statusCode).toBe(400);
    expect(inGroup.json()).toEqual({ __all__: ['Cluster with this Group and Name already exists.'] });
    const inSite = await t.post('/api/virtualization/clusters/', {
      name,
      type: (await makeClusterType(t)).id,
      site: site.id,
    });
    expect(inSite.json()).toEqual({ __all__: ['Cluster with this Site and Name already exists.'] });
  });

  it('requires a type and refuses a bad status', async () => {
    const res = await t.post('/api/virtualization/clusters/', { name: uniq('c'), status: 'bogus' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: ['This field is required.'], status: ['"bogus" is not a valid choice.'] });
  });

  it('refuses a site that leaves host devices elsewhere', async () => {
    const [a, b] = [await makeSite(t), await makeSite(t)];
    const c = await makeCluster(t);
    await makeDevice(t, { site: a.id, cluster: c.id });
    const res = await t.patch(`/api/virtualization/clusters/${c.id}/`, { site: b.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      site: [`1 devices are assigned as hosts for this cluster but are not in site ${b.name}`],
    });
    expect((await t.patch(`/api/virtualization/clusters/${c.id}/`, { site: a.id })).statusCode).toBe(200);
  });

  it('protects types, groups and clusters in use, and frees host devices when a cluster goes', async () => {
    const [type, group] = [await makeClusterType(t), await makeClusterGroup(t)];
    const c = await makeCluster(t, { type: type.id, group: group.id });
    expect((await t.del(`/api/virtualization/cluster-types/${type.id}/`)).statusCode).toBe(409);
    expect((await t.del(`/api/virtualization/cluster-groups/${group.id}/`)).statusCode).toBe(409);
    const vm = await makeVm(t, { cluster: c.id });
    const blocked = await t.del(`/api/virtualization/clusters/${c.id}/`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().detail).toMatch(/^Unable to delete object\. 1 dependent objects were found: /);
    expect((await t.del(`/api/virtualization/virtual-machines/${vm.id}/`)).statusCode).toBe(204);
    const host = await makeDevice(t, { cluster: c.id });
    expect((await t.del(`/api/virtualization/clusters/${c.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/devices/${host.id}/`)).json().cluster).toBeNull();
  });

  it('filters by type, group, site, region and tenant', async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('r'), slug: uniq('r') });
    const site = await makeSite(t, { region: region.id });
    const tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('ten'), slug: uniq('ten') });
    const [type, group] = [await makeClusterType(t), await makeClusterGroup(t)];
    const c = await makeCluster(t, { type: type.id, group: group.id, site: site.id, tenant: tenant.id });
    const other = await makeCluster(t);
    const list = async (q: string) => ids((await t.get(`/api/virtualization/clusters/?${q}`)).json());
    expect(await list(`type_id=${type.id}`)).toEqual([c.id]);
    expect(await list(`type=${type.slug}`)).toEqual([c.id]);
    expect(await list(`group=${group.slug}`)).toEqual([c.id]);
    expect(await list(`site_id=${site.id}`)).toEqual([c.id]);
    expect(await list(`region=${region.slug}`)).toEqual([c.id]);
    expect(await list(`tenant=${tenant.slug}`)).toEqual([c.id]);
    expect(await list(`id=${c.id}&id=${other.id}&group_id__n=${group.id}`)).toEqual([other.id]);
    expect((await t.get('/api/virtualization/clusters/?type=no-such-type')).statusCode).toBe(400);
  });
});

describe('devices as cluster hosts', () => {
  it('refuses a cluster of another site, accepts one without a site, and filters by cluster', async () => {
    const [a, b] = [await makeSite(t), await makeSite(t)];
    const inB = await makeCluster(t, { site: b.id });
    const device = await makeDevice(t, { site: a.id });
    const res = await t.patch(`/api/dcim/devices/${device.id}/`, { cluster: inB.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ cluster: [`The assigned cluster belongs to a different site (${b.name})`] });
    const anywhere: Json = await makeCluster(t);
    const ok = await t.patch(`/api/dcim/devices/${device.id}/`, { cluster: anywhere.id });
    expect(ok.json().cluster).toMatchObject({ id: anywhere.id, name: anywhere.name });
    expect(ids((await t.get(`/api/dcim/devices/?cluster_id=${anywhere.id}`)).json())).toEqual([device.id]);
    // NetBox declares only cluster_id on devices: `cluster=` is an unknown name, ignored
    const unfiltered = (await t.get('/api/dcim/devices/?limit=1')).json().count;
    expect((await t.get(`/api/dcim/devices/?cluster=${anywhere.name}&limit=1`)).json().count).toBe(unfiltered);
  });
});
