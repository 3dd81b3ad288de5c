/**
 * No N+1: related objects load once per relation per level. The case - IP addresses with
 * vrf, tenant and assigned_object { device { site } } - costs the same statements for 1,000
 * addresses as for 10.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { gqlData, type Json } from './helpers.js';
import { fewestStatements } from '../../helpers/statements.js';
import { uniq, makeDevice, makeInterface, makeSite } from '../../factories/index.js';

let t: TestApp;
const QUERY = `query($limit: Int) { ip_address_list(pagination: {limit: $limit}) {
  address vrf { name } tenant { name } assigned_object { ... on InterfaceType { name device { name site { name } } } } } }`;

beforeAll(async () => {
  t = await makeTestApp();
  const vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf') })).json();
  const tenantName = uniq('tenant');
  const tenant = (await t.post('/api/tenancy/tenants/', { name: tenantName, slug: tenantName })).json();
  const interfaces: Json[] = [];
  for (let d = 0; d < 4; d++) {
    const device = await makeDevice(t, { site: (await makeSite(t)).id });
    for (let i = 0; i < 5; i++) interfaces.push(await makeInterface(t, device));
  }
  const addresses = Array.from({ length: 1000 }, (_, n) => ({
    address: `10.${Math.floor(n / 250)}.${n % 250}.1/16`,
    vrf: vrf.id,
    tenant: tenant.id,
    assigned_object_type: 'dcim.interface',
    assigned_object_id: interfaces[n % interfaces.length]!.id,
  }));
  const res = await t.post('/api/ipam/ip-addresses/', addresses);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
}, 120_000);
afterAll(async () => t?.close());

async function fewestStatementsOf(limit: number): Promise<{ n: number; rows: Json[] }> {
  const { n, result } = await fewestStatements(
    t.db,
    async () => (await gqlData(t, QUERY, { limit })).ip_address_list as Json[],
  );
  return { n, rows: result };
}

describe('GraphQL batching', () => {
  it('loads 1,000 addresses with their relations in as many statements as 10', async () => {
    await gqlData(t, QUERY, { limit: 1 }); // the schema and the token cache warm up
    const small = await fewestStatementsOf(10);
    const large = await fewestStatementsOf(1000);
    expect(small.rows).toHaveLength(10);
    expect(large.rows).toHaveLength(1000);
    expect(large.rows.every((r) => r.vrf && r.tenant && r.assigned_object.device.site.name)).toBe(true);
    // the list, vrf, tenant, interfaces, devices, sites
    expect(small.n).toBe(6);
    expect(large.n).toBe(small.n);
  });

  it('caps nested lists per parent at their pagination and at MAX_PAGE_SIZE, each parent on its own', async () => {
    const data = await gqlData(
      t,
      `{ device_list { interfaces(pagination: {limit: 2}) { name } all: interfaces { name } } }`,
    );
    expect(data.device_list).toHaveLength(4);
    for (const d of data.device_list) {
      expect(d.interfaces).toHaveLength(2);
      expect(d.all).toHaveLength(5);
      expect(d.interfaces).toEqual(d.all.slice(0, 2));
    }
    const capped = await makeTestApp({ MAX_PAGE_SIZE: '3' });
    try {
      const device = await makeDevice(capped);
      for (let i = 0; i < 5; i++) await makeInterface(capped, device);
      const out = await gqlData(
        capped,
        `{ device_list { interfaces(pagination: {limit: 100}) { id } } interface_list { id } }`,
      );
      expect(out.device_list[0].interfaces).toHaveLength(3);
      expect(out.interface_list).toHaveLength(3);
    } finally {
      await capped.close();
    }
  }, 60_000);
});
