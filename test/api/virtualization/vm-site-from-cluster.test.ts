/**
 * A virtual machine in a cluster takes the cluster's site (NetBox 3.4 VirtualMachine.clean(), on
 * create and on update), so `?site=` and `?region=` find it and inventories group it under its
 * site; a VM whose site differs from its cluster's, or that has a site while its cluster has none,
 * is refused. The site is written with the VM: its change record shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Json, ids, make, makeCluster, makeSite, makeVm, uniq } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const PATH = '/api/virtualization/virtual-machines/';
const siteOf = async (vm: Json) => (await t.get(`${PATH}${vm.id}/`)).json().site?.id ?? null;
const refusal = (cluster: Json, site: Json) => ({
  cluster: [`The selected cluster (${cluster.name}) is not assigned to this site (${site.name}).`],
});

describe('a VM created in a cluster without a site of its own', () => {
  it("gets the cluster's site, is found by site and region, and its change record holds the site", async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('region'), slug: uniq('region') });
    const site = await makeSite(t, { region: region.id });
    const cluster = await makeCluster(t, { site: site.id });
    const res = await t.post(PATH, { name: uniq('vm'), cluster: cluster.id }, undefined);
    expect(res.statusCode, res.body).toBe(201);
    const vm = res.json();
    expect(vm.site).toMatchObject({ id: site.id, slug: site.slug });
    expect(await siteOf(vm)).toBe(site.id);
    expect(ids((await t.get(`${PATH}?site=${site.slug}`)).json())).toEqual([vm.id]);
    expect(ids((await t.get(`${PATH}?site_id=${site.id}`)).json())).toEqual([vm.id]);
    expect(ids((await t.get(`${PATH}?region=${region.slug}`)).json())).toEqual([vm.id]);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().virtualmachine_count).toBe(1);
    const changes = (
      await t.get(
        `/api/extras/object-changes/?changed_object_type=virtualization.virtualmachine&changed_object_id=${vm.id}`,
      )
    ).json();
    expect(changes.results).toHaveLength(1);
    expect(changes.results[0]).toMatchObject({ action: { value: 'create' }, postchange_data: { site: site.id } });
  });

  it('stays without a site when its cluster has none; bulk creates fill each item', async () => {
    const loose = await makeCluster(t);
    expect(await siteOf(await makeVm(t, { cluster: loose.id }))).toBeNull();
    const site = await makeSite(t);
    const sited = await makeCluster(t, { site: site.id });
    const res = await t.post(PATH, [
      { name: uniq('vm'), cluster: sited.id },
      { name: uniq('vm'), cluster: loose.id },
      { name: uniq('vm'), cluster: sited.id, site: site.id },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().map((v: Json) => v.site?.id ?? null)).toEqual([site.id, null, site.id]);
  });
});

describe('a VM whose site is not its cluster’s', () => {
  it("is refused with NetBox's message, also when the cluster has no site, and nothing is written", async () => {
    const [site, other] = [await makeSite(t), await makeSite(t)];
    const cluster = await makeCluster(t, { site: site.id });
    const loose = await makeCluster(t);
    const before = (await t.get(`${PATH}?limit=1`)).json().count;
    for (const [c, s] of [
      [cluster, other],
      [loose, site],
    ] as const) {
      const res = await t.post(PATH, { name: uniq('vm'), cluster: c.id, site: s.id });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(refusal(c, s));
    }
    const bulk = await t.post(PATH, [
      { name: uniq('vm'), cluster: cluster.id },
      { name: uniq('vm'), cluster: loose.id, site: other.id },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([{}, refusal(loose, other)]);
    expect((await t.get(`${PATH}?limit=1`)).json().count).toBe(before);
  });
});

describe('an update', () => {
  it("moves the VM to its new cluster's site when the site is cleared with it, and refuses a cluster of another site", async () => {
    const [s1, s2] = [await makeSite(t), await makeSite(t)];
    const [c1, c2] = [await makeCluster(t, { site: s1.id }), await makeCluster(t, { site: s2.id })];
    const vm = await makeVm(t, { cluster: c1.id });
    expect(vm.site.id).toBe(s1.id);
    // the stored site stays: a cluster of another site is refused (NetBox compares with self.site)
    const moved = await t.patch(`${PATH}${vm.id}/`, { cluster: c2.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual(refusal(c2, s1));
    const both = await t.patch(`${PATH}${vm.id}/`, { cluster: c2.id, site: null });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().site.id).toBe(s2.id);
    // clearing the site alone gives it back: the cluster's site is the VM's
    const cleared = await t.patch(`${PATH}${vm.id}/`, { site: null });
    expect(cleared.json().site.id).toBe(s2.id);
    // PUT keeps what it leaves out (DRF): the stored site, which the other cluster does not have
    const kept = await t.put(`${PATH}${vm.id}/`, { name: vm.name, cluster: c1.id });
    expect(kept.json()).toEqual(refusal(c1, s2));
    const put = await t.put(`${PATH}${vm.id}/`, { name: vm.name, cluster: c1.id, site: null });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().site.id).toBe(s1.id);
  });

  it('gives a VM stored without a site the site its cluster got since, at its next write', async () => {
    const cluster = await makeCluster(t);
    const vm = await makeVm(t, { cluster: cluster.id });
    expect(vm.site).toBeNull();
    const site = await makeSite(t);
    expect((await t.patch(`/api/virtualization/clusters/${cluster.id}/`, { site: site.id })).statusCode).toBe(200);
    expect(await siteOf(vm)).toBeNull();
    const touched = await t.patch(`${PATH}${vm.id}/`, { description: 'touched' });
    expect(touched.statusCode, touched.body).toBe(200);
    expect(touched.json().site.id).toBe(site.id);
    const changes = (
      await t.get(
        `/api/extras/object-changes/?changed_object_type=virtualization.virtualmachine&changed_object_id=${vm.id}&action=update`,
      )
    ).json();
    expect(changes.results[0]).toMatchObject({ prechange_data: { site: null }, postchange_data: { site: site.id } });
  });
});
