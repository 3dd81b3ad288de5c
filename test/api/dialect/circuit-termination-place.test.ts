/**
 * What a circuit termination ends at (NetBox 4.2): termination_type / termination_id /
 * termination in 4.4, which hides site and provider_network; 3.4 shows those as the termination's
 * site (a location's too) or provider network (apps/circuits/termination-place.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Json,
  makeCircuit,
  makeLocation,
  makeProviderNetwork,
  makeRegion,
  makeSite,
  makeTermination,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
const TERMS = '/api/circuits/circuit-terminations/';

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get44 = async (url: string) => (await t.request('GET', url, { headers: V44 })).json();
const send44 = (method: string, url: string, body: unknown) => t.request(method, url, { body, headers: V44 });

describe('a circuit termination termination', () => {
  it('shows the termination in 4.4 and site / provider_network in 3.4, written either way', async () => {
    const site = await makeSite(t);
    const term = await makeTermination(t, await makeCircuit(t), 'A', { site: site.id });
    const now = await get44(`${TERMS}${term.id}/`);
    expect(now).toMatchObject({ termination_type: 'dcim.site', termination_id: site.id });
    expect(now.termination).toMatchObject({ id: site.id, slug: site.slug });
    expect(now).not.toHaveProperty('site');
    expect(now).not.toHaveProperty('provider_network');
    const keys = Object.keys(now);
    expect(keys.slice(keys.indexOf('term_side'), keys.indexOf('term_side') + 5)).toEqual([
      'term_side',
      'termination_type',
      'termination_id',
      'termination',
      'port_speed',
    ]);
    expect(term).not.toHaveProperty('termination');
    // a location: 3.4 shows its site
    const loc = await makeLocation(t, { site: site.id });
    const moved = await send44('PATCH', `${TERMS}${term.id}/`, {
      termination_type: 'dcim.location',
      termination_id: loc.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    let old = (await t.get(`${TERMS}${term.id}/`)).json();
    expect([old.site.id, old.provider_network]).toEqual([site.id, null]);
    // a provider network written in 3.4's shape becomes the termination
    const pn = await makeProviderNetwork(t);
    const back = await t.patch(`${TERMS}${term.id}/`, { site: null, provider_network: pn.id });
    expect(back.statusCode, back.body).toBe(200);
    expect(await get44(`${TERMS}${term.id}/`)).toMatchObject({
      termination_type: 'circuits.providernetwork',
      termination_id: pn.id,
    });
    // a region: 3.4 shows neither (lossy); a 3.4 PUT writing both back as null leaves it
    const region = await makeRegion(t);
    await send44('PATCH', `${TERMS}${term.id}/`, { termination_type: 'dcim.region', termination_id: region.id });
    old = (await t.get(`${TERMS}${term.id}/`)).json();
    expect([old.site, old.provider_network]).toEqual([null, null]);
    const put = await t.put(`${TERMS}${term.id}/`, {
      circuit: old.circuit.id,
      term_side: 'A',
      site: null,
      provider_network: null,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await get44(`${TERMS}${term.id}/`)).termination_type).toBe('dcim.region');
    const changes = (
      await t.get(
        `/api/extras/object-changes/?changed_object_type=circuits.circuittermination&changed_object_id=${term.id}&ordering=time`,
      )
    ).json().results as Json[];
    expect(changes.map((c) => c.postchange_data.termination_type)).toEqual([
      'dcim.site',
      'dcim.location',
      'circuits.providernetwork',
      'dcim.region',
      'dcim.region',
    ]);
  });

  it('filters as NetBox 4.4 does', async () => {
    const region = await makeRegion(t);
    const site = await makeSite(t, { region: region.id });
    const loc = await makeLocation(t, { site: site.id });
    const [c1, c2] = [await makeCircuit(t), await makeCircuit(t)];
    await send44('POST', TERMS, {
      circuit: c1.id,
      term_side: 'A',
      termination_type: 'dcim.location',
      termination_id: loc.id,
    });
    await send44('POST', TERMS, {
      circuit: c1.id,
      term_side: 'Z',
      termination_type: 'dcim.region',
      termination_id: region.id,
    });
    await makeTermination(t, c2, 'A', { site: site.id });
    const ids = `circuit_id=${c1.id}&circuit_id=${c2.id}`;
    const count = async (q: string) => (await get44(`${TERMS}?${ids}&${q}`)).count;
    expect(await count(`region_id=${region.id}`)).toBe(3);
    expect(await count(`site_id=${site.id}`)).toBe(2);
    expect(await count(`location_id=${loc.id}`)).toBe(1);
    expect(await count(`location=${loc.slug}`)).toBe(1);
    expect(await count('termination_type=dcim.region')).toBe(1);
    expect(await count(`termination_type=dcim.site&termination_id=${site.id}`)).toBe(1);
  });

  it('refuses a termination of another type, or none, writing nothing', async () => {
    const site = await makeSite(t);
    const term = await makeTermination(t, await makeCircuit(t), 'A', { site: site.id });
    const bad = await send44('PATCH', `${TERMS}${term.id}/`, {
      termination_type: 'dcim.rack',
      termination_id: 1,
      description: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ termination_type: ['Invalid content type: dcim.rack'] });
    const none = await t.post(TERMS, { circuit: (await makeCircuit(t)).id, term_side: 'A' });
    expect(none.json()).toEqual({ __all__: ['A circuit termination needs a site or a provider network.'] });
    const now = await get44(`${TERMS}${term.id}/`);
    expect([now.termination_type, now.termination_id, now.description]).toEqual(['dcim.site', site.id, '']);
  });
});
