/**
 * Parallel allocations never hand out the same address: the allocation takes a PostgreSQL
 * advisory lock inside its transaction (on DB=postgres the requests really run at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('concurrent allocation', () => {
  it('gives ten parallel POSTs to available-ips ten different addresses', async () => {
    const parent = (await t.post('/api/ipam/prefixes/', { prefix: '100.64.0.0/24' })).json();
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.post(url, { description: `parallel ${i}` })),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const addresses = results.map((r) => r.json().address as string);
    expect(new Set(addresses).size).toBe(10);
    const stored = (await t.get('/api/ipam/ip-addresses/?parent=100.64.0.0/24&limit=100')).json();
    expect(stored.count).toBe(10);
  });

  it('gives parallel prefix and VLAN allocations distinct results too', async () => {
    const parent = (await t.post('/api/ipam/prefixes/', { prefix: '100.65.0.0/24' })).json();
    const prefixes = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.post(`/api/ipam/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 28 }),
      ),
    );
    expect(new Set(prefixes.map((r) => r.json().prefix)).size).toBe(6);
    const group = (await t.post('/api/ipam/vlan-groups/', { name: 'par', slug: 'par' })).json();
    const vlans = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.post(`/api/ipam/vlan-groups/${group.id}/available-vlans/`, { name: `v${i}` }),
      ),
    );
    for (const r of vlans) expect(r.statusCode, r.body).toBe(201);
    expect(new Set(vlans.map((r) => r.json().vid)).size).toBe(6);
  });
});
