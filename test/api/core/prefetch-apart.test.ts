/**
 * A list whose filters PostgreSQL plans per value (a pattern: `q=`, `__ic`; a network: `parent=`)
 * reads its page alone and what the page shows in a second statement by the page's ids
 * (crud/read.ts plannedPerValue, represent/prefetch.ts prefetchFor). Both ways must show exactly
 * what the one-statement page shows, with no statement per row or per relation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { getStatements } from '../../helpers/statements.js';
import { uniq, make, makeDevice, type Json } from '../../factories/index.js';

let t: TestApp;
let tag: string;
let addresses: Json[];
beforeAll(async () => {
  // every GET renders: the statements counted are the render's, not a cached answer's
  t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
  tag = uniq('apart');
  const device = await makeDevice(t);
  const iface = await make(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
  const vrf = await make(t, '/api/ipam/vrfs/', { name: uniq('vrf'), rd: '65000:213' });
  const tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('ten'), slug: uniq('ten') });
  const label = await make(t, '/api/extras/tags/', { name: uniq('tag'), slug: uniq('tag') });
  const inside = await make(t, '/api/ipam/ip-addresses/', {
    address: '10.213.1.1/24',
    dns_name: `${tag}-a.example.net`,
    vrf: vrf.id,
    tenant: tenant.id,
    tags: [label.id],
    assigned_object_type: 'dcim.interface',
    assigned_object_id: iface.id,
  });
  const outside = await make(t, '/api/ipam/ip-addresses/', {
    address: '10.213.2.1/32',
    dns_name: `${tag}-b.example.net`,
    nat_inside: inside.id,
  });
  const plain = await make(t, '/api/ipam/ip-addresses/', {
    address: '10.213.3.1/24',
    dns_name: `${tag}-c.example.net`,
  });
  addresses = [inside, outside, plain];
});
afterAll(async () => t.close());

const statements = (url: string): Promise<{ n: number; body: Json }> => getStatements(t, url);

describe('a page filtered by a pattern or a network', () => {
  it('is two statements, and shows what the same rows show read by id in one', async () => {
    const byId = await statements(
      `/api/ipam/ip-addresses/?${addresses.map((a) => `id=${a.id}`).join('&')}&ordering=address`,
    );
    expect(byId.n).toBe(1);
    expect(byId.body.results[0]).toMatchObject({
      vrf: { id: expect.any(Number) },
      tenant: { id: expect.any(Number) },
      assigned_object: { device: { id: expect.any(Number) } },
    });
    expect(byId.body.results[0].tags).toHaveLength(1);
    expect(byId.body.results[0].nat_outside).toMatchObject({ id: addresses[1]!.id });
    for (const url of [
      `/api/ipam/ip-addresses/?q=${tag}&ordering=address`,
      '/api/ipam/ip-addresses/?parent=10.213.0.0/16&ordering=address',
      `/api/ipam/ip-addresses/?dns_name__ic=${tag}&ordering=address`,
    ]) {
      // twice: the second takes its total from the count cache, so the page's statement holds only
      // the page's own conditions (parent=: the network's ranges read apart, no `<<=` beside them)
      for (const read of ['first', 'again']) {
        const apart = await statements(url);
        expect(apart.n, `${url} ${read}`).toBe(2);
        expect(apart.body, url).toEqual(byId.body);
      }
    }
  });

  it('that finds nothing is one statement', async () => {
    const { n, body } = await statements(`/api/ipam/ip-addresses/?q=${uniq('none')}`);
    expect(body).toMatchObject({ count: 0, results: [] });
    expect(n).toBe(1);
  });

  it('shows its page in the order asked and counts every match', async () => {
    const { body } = await statements(`/api/ipam/ip-addresses/?q=${tag}&ordering=-address&limit=2`);
    expect(body.count).toBe(3);
    expect(body.results.map((a: Json) => a.id)).toEqual([addresses[2]!.id, addresses[1]!.id]);
  });
});
