/**
 * VLAN groups in the 4.4 dialect: `tenant` (NetBox 4.3) with the tenancy filters, and
 * `utilization` (NetBox 4.0), the VLANs per VID of the group's ranges in percent; 3.4 clients see
 * neither and their filters are unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { make, makeTenant, named, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const V44 = { accept: 'application/json; version=4.4' };
const get44 = (url: string) => t.request('GET', url, { headers: V44 });

describe('VLAN group tenant and utilization', () => {
  it('writes and shows the tenant in 4.4, filters by it, and keeps 3.4 as it was', async () => {
    const tenant = await makeTenant(t);
    const made = await t.request('POST', '/api/ipam/vlan-groups/', {
      headers: V44,
      body: { ...named('vg'), tenant: tenant.id, vid_ranges: [[100, 199]] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const group = made.json();
    expect(group.tenant).toMatchObject({ id: tenant.id, name: tenant.name });
    expect(group).toHaveProperty('utilization', '0.00');
    for (const q of [`tenant_id=${tenant.id}`, `tenant=${tenant.slug}`])
      expect((await get44(`/api/ipam/vlan-groups/?${q}`)).json().results.map((g: { id: number }) => g.id)).toEqual([
        group.id,
      ]);
    const old = (await t.get(`/api/ipam/vlan-groups/${group.id}/`)).json();
    expect(old).not.toHaveProperty('tenant');
    expect(old).not.toHaveProperty('utilization');
    // a tenant holding a group cannot be deleted
    expect((await t.del(`/api/tenancy/tenants/${tenant.id}/`)).statusCode).toBe(409);
  });

  it('gives the share of VIDs in use to two places', async () => {
    const group = (
      await t.request('POST', '/api/ipam/vlan-groups/', {
        headers: V44,
        body: {
          ...named('vg'),
          vid_ranges: [
            [1, 3],
            [10, 14],
          ],
        },
      })
    ).json();
    expect(group.utilization).toBe('0.00');
    for (const vid of [1, 2, 11]) await make(t, '/api/ipam/vlans/', { name: uniq('v'), vid, group: group.id });
    expect((await get44(`/api/ipam/vlan-groups/${group.id}/`)).json().utilization).toBe('37.50');
    const list = (await get44(`/api/ipam/vlan-groups/?id=${group.id}`)).json().results[0];
    expect([list.vlan_count, list.utilization]).toEqual([3, '37.50']);
  });

  it('are GraphQL fields and filters in 4.4 only', async () => {
    const tenant = await makeTenant(t);
    const body = { ...named('vg'), tenant: tenant.id, vid_ranges: [[1, 4]] };
    const group = (await t.request('POST', '/api/ipam/vlan-groups/', { headers: V44, body })).json();
    await make(t, '/api/ipam/vlans/', { name: uniq('v'), vid: 2, group: group.id });
    const gql = (query: string, headers?: Record<string, string>) =>
      t.request('POST', '/graphql/', { body: { query }, headers });
    const query = `{ vlan_group_list(filters: {tenant: {slug: {exact: "${tenant.slug}"}}}) { id tenant { slug } utilization } }`;
    expect((await gql(query, V44)).json()).toEqual({
      data: { vlan_group_list: [{ id: String(group.id), tenant: { slug: tenant.slug }, utilization: '25.00' }] },
    });
    const old = await gql(`{ vlan_group(id: ${group.id}) { utilization } }`);
    expect(old.statusCode).toBe(400);
    expect(old.json().errors[0].message).toContain('Cannot query field "utilization"');
  });
});
