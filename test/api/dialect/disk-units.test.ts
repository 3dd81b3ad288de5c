/**
 * A VM's disk and a virtual disk's size: MB in NetBox 4.4's API (#14692), GB in 3.4's, one stored
 * figure (MB) behind both, in reads, writes, filters, GraphQL and the disk-total rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
let cluster: number;
beforeAll(async () => {
  t = await makeTestApp();
  const type = (await t.post('/api/virtualization/cluster-types/', { name: uniq('ct'), slug: uniq('ct') })).json();
  cluster = (await t.post('/api/virtualization/clusters/', { name: uniq('cl'), type: type.id })).json().id;
});
afterAll(async () => t.close());

const as44 = (method: string, url: string, body?: unknown) => t.request(method, url, { body, headers: V44 });

describe('disk sizes per dialect', () => {
  it('shows one stored size in GB to 3.4 and in MB to 4.4, written in either', async () => {
    const vm = (await t.post('/api/virtualization/virtual-machines/', { name: uniq('vm'), cluster, disk: 20 })).json();
    expect(vm.disk).toBe(20);
    expect((await as44('GET', `/api/virtualization/virtual-machines/${vm.id}/`)).json().disk).toBe(20_000);
    const patched = await as44('PATCH', `/api/virtualization/virtual-machines/${vm.id}/`, { disk: 1500 });
    expect(patched.json().disk).toBe(1500);
    // 3.4 rounds to its unit
    expect((await t.get(`/api/virtualization/virtual-machines/${vm.id}/`)).json().disk).toBe(2);
    const gql = await t.post('/graphql/', { query: `{ virtual_machine(id: ${vm.id}) { disk } }` });
    expect(gql.json().data.virtual_machine.disk).toBe(2);
  });

  it('filters in the unit of the dialect', async () => {
    const name = uniq('vm');
    const vm = (await as44('POST', '/api/virtualization/virtual-machines/', { name, cluster, disk: 5000 })).json();
    const ids = async (res: Promise<{ json(): { results: Array<{ id: number }> } }>) =>
      (await res).json().results.map((r) => r.id);
    expect(await ids(t.get(`/api/virtualization/virtual-machines/?name=${name}&disk=5`))).toEqual([vm.id]);
    expect(await ids(as44('GET', `/api/virtualization/virtual-machines/?name=${name}&disk=5000`))).toEqual([vm.id]);
    expect(await ids(as44('GET', `/api/virtualization/virtual-machines/?name=${name}&disk__gte=5001`))).toEqual([]);
    expect(await ids(t.get(`/api/virtualization/virtual-machines/?name=${name}&disk__lt=5`))).toEqual([]);
  });

  it('keeps the machine total of its virtual disks, and names sizes in the client unit', async () => {
    const vm = (await t.post('/api/virtualization/virtual-machines/', { name: uniq('vm'), cluster })).json();
    await t.post('/api/virtualization/virtual-disks/', { virtual_machine: vm.id, name: 'a', size: 10 });
    const b = await as44('POST', '/api/virtualization/virtual-disks/', {
      virtual_machine: vm.id,
      name: 'b',
      size: 2500,
    });
    expect(b.json().size).toBe(2500);
    expect((await as44('GET', `/api/virtualization/virtual-machines/${vm.id}/`)).json().disk).toBe(12_500);
    const bad = await t.patch(`/api/virtualization/virtual-machines/${vm.id}/`, { disk: 3 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().disk[0]).toContain('(3) must match the aggregate size of assigned virtual disks (13)');
    // a 3.4 size past what MB can hold once scaled is refused in GB terms
    const huge = await t.post('/api/virtualization/virtual-disks/', {
      virtual_machine: vm.id,
      name: 'c',
      size: 3_000_000,
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toEqual({ size: ['Ensure this value is less than or equal to 2147483.'] });
  });
});
