/** ENFORCE_GLOBAL_UNIQUE (reference 3.3): duplicates refused in the global table too. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ ENFORCE_GLOBAL_UNIQUE: 'true' });
});
afterAll(async () => t.close());

describe('ENFORCE_GLOBAL_UNIQUE=true', () => {
  it('refuses a duplicate prefix in the global table, allows it in a VRF without enforce_unique', async () => {
    expect((await t.post('/api/ipam/prefixes/', { prefix: '10.0.0.0/24' })).statusCode).toBe(201);
    const dup = await t.post('/api/ipam/prefixes/', { prefix: '10.0.0.0/24' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ prefix: ['Duplicate prefix found in global table: 10.0.0.0/24'] });
    const vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf'), enforce_unique: false })).json();
    expect(
      (
        await t.post('/api/ipam/prefixes/', [
          { prefix: '10.0.0.0/24', vrf: vrf.id },
          { prefix: '10.0.0.0/24', vrf: vrf.id },
        ])
      ).statusCode,
    ).toBe(201);
  });

  it('refuses a duplicate address in the global table unless both share a non-unique role', async () => {
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.1/24' })).statusCode).toBe(201);
    const dup = await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.1/32' });
    expect(dup.json()).toEqual({ address: ['Duplicate IP address found in global table: 10.0.0.1/24'] });
    await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.9/24', role: 'anycast' });
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.9/24', role: 'anycast' })).statusCode).toBe(201);
    expect((await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.9/24', role: 'loopback' })).statusCode).toBe(
      400,
    );
  });

  it('lets an address keep its own value on update', async () => {
    const ip = (await t.post('/api/ipam/ip-addresses/', { address: '10.0.0.20/24' })).json();
    expect((await t.patch(`/api/ipam/ip-addresses/${ip.id}/`, { description: 'same address' })).statusCode).toBe(200);
  });
});
