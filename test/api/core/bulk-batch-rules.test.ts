/**
 * Rules that compare an object with the stored ones (no duplicate, no overlap, one cable per
 * interface, free rack units) hold between the items of one bulk write too: the request
 * fails as a whole, the error array names the later item, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  makeDevice,
  makeDeviceType,
  makeInterface,
  makeRack,
  makeSite,
  term,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ ENFORCE_GLOBAL_UNIQUE: 'true' });
});
afterAll(async () => t.close());

const count = async (path: string, query = '') => (await t.get(`${path}?limit=1${query}`)).json().count as number;

/** posts a bulk create; expects a 400 whose array is {} but for the item at `at`, whose errors are returned; nothing created */
async function refused(path: string, items: Json[], at: number): Promise<Record<string, string[]>> {
  const before = await count(path);
  const res = await t.post(path, items);
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as Json[];
  expect(body).toHaveLength(items.length);
  body.forEach((e, i) => (i === at ? expect(Object.keys(e).length).toBeGreaterThan(0) : expect(e).toEqual({})));
  expect(await count(path)).toBe(before);
  return body[at]!;
}

describe('addresses and networks', () => {
  it('refuses the same address twice in a VRF that enforces uniqueness, any mask', async () => {
    const vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf'), enforce_unique: true })).json();
    const errors = await refused(
      '/api/ipam/ip-addresses/',
      [
        { address: '192.0.2.1/24', vrf: vrf.id },
        { address: '192.0.2.7/24', vrf: vrf.id },
        { address: '192.0.2.1/32', vrf: vrf.id },
      ],
      2,
    );
    expect(errors).toEqual({ address: [`Duplicate IP address found in VRF ${vrf.name}: 192.0.2.1/24`] });
    // twins sharing a non-unique role are allowed, in one request as across requests
    const ok = await t.post('/api/ipam/ip-addresses/', [
      { address: '192.0.2.9/24', vrf: vrf.id, role: 'anycast' },
      { address: '192.0.2.9/24', vrf: vrf.id, role: 'anycast' },
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    // and the same address in another VRF is another address
    const other = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf'), enforce_unique: true })).json();
    expect(
      (
        await t.post('/api/ipam/ip-addresses/', [
          { address: '192.0.2.1/24', vrf: vrf.id },
          { address: '192.0.2.1/24', vrf: other.id },
        ])
      ).statusCode,
    ).toBe(201);
  });

  it('refuses the same prefix twice in the global table (ENFORCE_GLOBAL_UNIQUE)', async () => {
    const errors = await refused(
      '/api/ipam/prefixes/',
      [{ prefix: '198.51.100.0/24' }, { prefix: '198.51.100.0/24' }],
      1,
    );
    expect(errors).toEqual({ prefix: ['Duplicate prefix found in global table: 198.51.100.0/24'] });
  });

  it('refuses aggregates of one request that overlap each other', async () => {
    const rir = (await t.post('/api/ipam/rirs/', { name: uniq('rir'), slug: uniq('rir') })).json();
    const errors = await refused(
      '/api/ipam/aggregates/',
      [
        { prefix: '100.64.0.0/10', rir: rir.id },
        { prefix: '100.64.8.0/24', rir: rir.id },
      ],
      1,
    );
    expect(errors).toEqual({
      prefix: ['Aggregates cannot overlap. 100.64.8.0/24 overlaps 100.64.0.0/10, written earlier in this request.'],
    });
  });

  it('refuses IP ranges of one request that overlap each other in the same VRF', async () => {
    const errors = await refused(
      '/api/ipam/ip-ranges/',
      [
        { start_address: '203.0.113.10/24', end_address: '203.0.113.20/24' },
        { start_address: '203.0.113.15/24', end_address: '203.0.113.30/24' },
      ],
      1,
    );
    expect(errors).toEqual({
      __all__: ['Defined addresses overlap with range 203.0.113.10-20/24, written earlier in this request'],
    });
  });
});

describe('dcim', () => {
  it('refuses two devices of one request in the same rack units', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site);
    const type = await makeDeviceType(t, { u_height: 2 });
    const role = (await t.post('/api/dcim/device-roles/', { name: uniq('role'), slug: uniq('role') })).json();
    const dev = (position: number) => ({
      name: uniq('dev'),
      site: site.id,
      rack: rack.id,
      face: 'front',
      position,
      device_type: type.id,
      device_role: role.id,
    });
    const errors = await refused('/api/dcim/devices/', [dev(1), dev(5), dev(2)], 2);
    expect(errors.position).toEqual([
      `U2 is already occupied or does not have sufficient space to accommodate this device type: ${type.model} (2U)`,
    ]);
    // units next to each other are free
    expect((await t.post('/api/dcim/devices/', [dev(10), dev(12)])).statusCode).toBe(201);
  });

  it('refuses two cables of one request ending on the same interface', async () => {
    const device = await makeDevice(t);
    const [a, b, c] = [await makeInterface(t, device), await makeInterface(t, device), await makeInterface(t, device)];
    const errors = await refused(
      '/api/dcim/cables/',
      [
        { a_terminations: term(a), b_terminations: term(b) },
        { a_terminations: term(c), b_terminations: term(a) },
      ],
      1,
    );
    expect(errors).toEqual({
      b_terminations: [
        `Duplicate termination found for dcim.interface:${a.id}: another cable of this request ends on it`,
      ],
    });
    expect((await t.get(`/api/dcim/interfaces/${a.id}/`)).json().cable).toBeNull();
  });
});
