/**
 * Stored cable paths (NetBox 3.4 CablePath) seen through the API: connected endpoints of
 * interfaces read from them, paths through circuits, upkeep when a cable or a circuit termination
 * in the middle changes or goes, trace / paths / connected-device routes, and a list's statement
 * count that does not grow with the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { createResponseValidator } from '../../helpers/openapi-validator.js';
import {
  uniq,
  type Json,
  make,
  makeCable,
  makeDevice,
  makeInterface,
  makeSite,
  cableBetween,
  end,
  makeCircuit,
  makeTermination,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const iface = (id: number) => get(`/api/dcim/interfaces/${id}/`);
const IF = 'dcim.interface';
const CT = 'circuits.circuittermination';

/** i1 - cable - CT A | circuit | CT Z - cable - i2 */
async function circuitPath() {
  const site = await makeSite(t);
  const [d1, d2] = [await makeDevice(t, { site: site.id }), await makeDevice(t, { site: site.id })];
  const [i1, i2] = [await makeInterface(t, d1), await makeInterface(t, d2)];
  const c = await makeCircuit(t);
  const [a, z] = [
    await makeTermination(t, c, 'A', { site: site.id }),
    await makeTermination(t, c, 'Z', { site: site.id }),
  ];
  const c1 = await cableBetween(t, end(IF, i1), end(CT, a));
  const c2 = await cableBetween(t, end(CT, z), end(IF, i2));
  return { site, d1, d2, i1, i2, a, z, c1, c2 };
}

describe('connected endpoints from stored paths', () => {
  it('connects two interfaces directly; reachable follows the cable status', async () => {
    const [i1, i2] = [await makeInterface(t, await makeDevice(t)), await makeInterface(t, await makeDevice(t))];
    expect((await iface(i1.id)).connected_endpoints).toBeNull();
    expect((await iface(i1.id)).connected_endpoints_reachable).toBeNull();
    const cable = await makeCable(t, i1, i2, { status: 'planned' });
    const one = await iface(i1.id);
    expect(one.connected_endpoints.map((e: Json) => e.id)).toEqual([i2.id]);
    expect(one.connected_endpoints_type).toBe(IF);
    expect(one.connected_endpoints_reachable).toBe(false);
    const connected = async (v: string) =>
      (await get(`/api/dcim/interfaces/?id=${i1.id}&id=${i2.id}&connected=${v}`)).results.length;
    expect([await connected('true'), await connected('false')]).toEqual([0, 2]);
    await t.patch(`/api/dcim/cables/${cable.id}/`, { status: 'connected' });
    expect((await iface(i2.id)).connected_endpoints_reachable).toBe(true);
    expect([await connected('true'), await connected('false')]).toEqual([2, 0]);
    expect((await iface(i2.id)).connected_endpoints.map((e: Json) => e.id)).toEqual([i1.id]);
  });

  it('follows a path through a circuit from A to Z, both ways', async () => {
    const { i1, i2, a, z, c1, c2 } = await circuitPath();
    const one = await iface(i1.id);
    expect(one.connected_endpoints.map((e: Json) => e.id)).toEqual([i2.id]);
    expect(one.connected_endpoints_reachable).toBe(true);
    expect(one.link_peers.map((e: Json) => e.id)).toEqual([a.id]);
    expect(one.link_peers_type).toBe(CT);
    expect((await iface(i2.id)).connected_endpoints.map((e: Json) => e.id)).toEqual([i1.id]);
    const paths = await get(`/api/circuits/circuit-terminations/${z.id}/paths/`);
    expect(paths).toHaveLength(2);
    const fromI1 = paths.find((p: Json) => p.path[0][0].id === i1.id);
    expect(fromI1).toMatchObject({ is_active: true, is_complete: true, is_split: false });
    expect(fromI1.path.map((hop: Json[]) => hop.map((o) => o.id))).toEqual([
      [i1.id],
      [c1.id],
      [a.id],
      [z.id],
      [c2.id],
      [i2.id],
    ]);
    expect(Object.keys(fromI1).sort()).toEqual(['id', 'is_active', 'is_complete', 'is_split', 'path']);
  });

  it('cuts the path when a cable in the middle goes, and mends it when a new one comes', async () => {
    const { i1, i2, z, c2, site } = await circuitPath();
    expect((await t.del(`/api/dcim/cables/${c2.id}/`)).statusCode).toBe(204);
    const cut = await iface(i1.id);
    expect(cut.connected_endpoints).toBeNull();
    expect(cut.connected_endpoints_type).toBeNull();
    // the path is still there (to the far site) but incomplete
    expect(cut.connected_endpoints_reachable).toBe(false);
    const far = await iface(i2.id);
    expect([far.cable, far.connected_endpoints, far.connected_endpoints_reachable]).toEqual([null, null, null]);
    const trace = await get(`/api/dcim/interfaces/${i1.id}/trace/`);
    expect(trace).toHaveLength(2);
    expect(trace[1][0].map((o: Json) => o.id)).toEqual([z.id]);
    expect(trace[1][1]).toBeNull();
    expect(trace[1][2].map((o: Json) => o.id)).toEqual([site.id]);
    await cableBetween(t, end(CT, z), end(IF, i2));
    expect((await iface(i1.id)).connected_endpoints.map((e: Json) => e.id)).toEqual([i2.id]);
    expect((await iface(i2.id)).connected_endpoints_reachable).toBe(true);
  });

  it('retraces when a circuit termination in the middle is deleted', async () => {
    const { i1, i2, z } = await circuitPath();
    expect((await t.del(`/api/circuits/circuit-terminations/${z.id}/`)).statusCode).toBe(204);
    const one = await iface(i1.id);
    expect([one.connected_endpoints, one.connected_endpoints_reachable]).toEqual([null, false]);
    expect((await iface(i2.id)).connected_endpoints).toBeNull();
    // the Z side comes back (not cabled, at a site): the path reaches it again, still incomplete
    const site = await makeSite(t);
    await makeTermination(t, { id: z.circuit.id }, 'Z', { site: site.id });
    const trace = await get(`/api/dcim/interfaces/${i1.id}/trace/`);
    expect(trace.at(-1)[2].map((o: Json) => o.id)).toEqual([site.id]);
  });

  it('drops the far end when the device of one end is deleted (the cable stays, half terminated)', async () => {
    const d1 = await makeDevice(t);
    const [i1, i2] = [await makeInterface(t, d1), await makeInterface(t, await makeDevice(t))];
    const cable = await makeCable(t, i1, i2);
    expect((await iface(i2.id)).connected_endpoints.map((e: Json) => e.id)).toEqual([i1.id]);
    expect((await t.del(`/api/dcim/devices/${d1.id}/`)).statusCode).toBe(204);
    const left = await iface(i2.id);
    expect(left.cable.id).toBe(cable.id);
    expect([left.connected_endpoints, left.connected_endpoints_reachable]).toEqual([null, false]);
    expect((await get(`/api/dcim/cables/?unterminated=true&id=${cable.id}`)).count).toBe(1);
    // the far end's trace stops at the cable with no far end left
    const trace = await get(`/api/dcim/interfaces/${i2.id}/trace/`);
    expect(trace.map((seg: Json[]) => [(seg[0] as Json[]).map((o) => o.id), (seg[1] as Json).id, seg[2]])).toEqual([
      [[i2.id], cable.id, []],
    ]);
  });

  it('ends complete in a provider network', async () => {
    const i1 = await makeInterface(t, await makeDevice(t));
    const c = await makeCircuit(t);
    const pnet = await make(t, '/api/circuits/provider-networks/', { name: uniq('pnet'), provider: c.provider.id });
    const a = await makeTermination(t, c, 'A', { site: (await makeSite(t)).id });
    await makeTermination(t, c, 'Z', { provider_network: pnet.id });
    await cableBetween(t, end(IF, i1), end(CT, a));
    const one = await iface(i1.id);
    expect(one.connected_endpoints_type).toBe('circuits.providernetwork');
    expect(one.connected_endpoints.map((e: Json) => e.id)).toEqual([pnet.id]);
    expect(one.connected_endpoints_reachable).toBe(true);
  });
});

describe('cable compatibility (NetBox 3.4 COMPATIBLE_TERMINATION_TYPES)', () => {
  it('refuses a circuit termination in a provider network, and takes a circuit termination on each end', async () => {
    const c = await makeCircuit(t);
    const pnet = await make(t, '/api/circuits/provider-networks/', { name: uniq('pnet'), provider: c.provider.id });
    const z = await makeTermination(t, c, 'Z', { provider_network: pnet.id });
    const i = await makeInterface(t, await makeDevice(t));
    const res = await t.post('/api/dcim/cables/', { a_terminations: end(IF, i), b_terminations: end(CT, z) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      b_terminations: ['Circuit terminations attached to a provider network may not be cabled.'],
    });
    const c2 = await makeCircuit(t);
    const [x, y] = [
      await makeTermination(t, c, 'A', { site: (await makeSite(t)).id }),
      await makeTermination(t, c2, 'A', { site: (await makeSite(t)).id }),
    ];
    expect(
      (await t.post('/api/dcim/cables/', { a_terminations: end(CT, x), b_terminations: end(CT, y) })).statusCode,
    ).toBe(201);
  });
});

describe('GET /api/dcim/interfaces/<id>/trace/', () => {
  it('lists [near ends, cable, far ends] with plain cable values', async () => {
    const { i1, i2, a, z, c1, c2 } = await circuitPath();
    await t.patch(`/api/dcim/cables/${c1.id}/`, { length: 2.5, length_unit: 'm', color: 'ff0000', label: 'x1' });
    const trace = await get(`/api/dcim/interfaces/${i1.id}/trace/`);
    expect(
      trace.map((seg: Json[]) => [
        (seg[0] as Json[]).map((o) => o.id),
        (seg[1] as Json).id,
        (seg[2] as Json[]).map((o) => o.id),
      ]),
    ).toEqual([
      [[i1.id], c1.id, [a.id]],
      [[z.id], c2.id, [i2.id]],
    ]);
    expect(trace[0][1]).toEqual({
      id: c1.id,
      url: expect.stringMatching(new RegExp(`/api/dcim/cables/${c1.id}/$`)),
      type: '',
      status: 'connected',
      label: 'x1',
      color: 'ff0000',
      length: 2.5,
      length_unit: 'm',
      description: '',
    });
    expect(trace[0][0][0]).toMatchObject({ id: i1.id, name: i1.name, device: { id: i1.device.id } });
    expect(await get(`/api/dcim/interfaces/${(await makeInterface(t, await makeDevice(t))).id}/trace/`)).toEqual([]);
    expect((await t.get('/api/dcim/interfaces/999999/trace/')).statusCode).toBe(404);
  });
});

describe('GET /api/dcim/interfaces/<id>/trace/ across a bridge', () => {
  it('continues from the bridge of the far interface (NetBox 3.4 PathEndpoint.trace)', async () => {
    const [d1, d2, d3] = [await makeDevice(t), await makeDevice(t), await makeDevice(t)];
    const [i1, i3] = [await makeInterface(t, d1), await makeInterface(t, d2)];
    const i2 = await makeInterface(t, d2, { bridge: i3.id });
    const i4 = await makeInterface(t, d3);
    const [c1, c2] = [await makeCable(t, i1, i2), await makeCable(t, i3, i4)];
    const trace = await get(`/api/dcim/interfaces/${i1.id}/trace/`);
    expect(
      trace.map((seg: Json[]) => [
        (seg[0] as Json[]).map((o) => o.id),
        (seg[1] as Json).id,
        (seg[2] as Json[]).map((o) => o.id),
      ]),
    ).toEqual([
      [[i1.id], c1.id, [i2.id]],
      [[i3.id], c2.id, [i4.id]],
    ]);
    // connected_endpoints stay the far end of the interface's own path
    expect((await iface(i1.id)).connected_endpoints.map((e: Json) => e.id)).toEqual([i2.id]);
  });
});

describe('GET /api/dcim/connected-device/', () => {
  it('finds the device at the far end, 404 without one, 400 without both parameters', async () => {
    const { d1, d2, i2 } = await circuitPath();
    const found = await t.get(
      `/api/dcim/connected-device/?peer_device=${encodeURIComponent(d2.name)}&peer_interface=${encodeURIComponent(i2.name)}`,
    );
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ id: d1.id, name: d1.name });
    expect(found.json()).not.toHaveProperty('config_context');
    const lone = await makeInterface(t, d2);
    expect(
      (
        await t.get(
          `/api/dcim/connected-device/?peer_device=${encodeURIComponent(d2.name)}&peer_interface=${encodeURIComponent(lone.name)}`,
        )
      ).statusCode,
    ).toBe(404);
    expect((await t.get(`/api/dcim/connected-device/?peer_device=nope&peer_interface=x`)).statusCode).toBe(404);
    const bad = await t.get(`/api/dcim/connected-device/?peer_device=${encodeURIComponent(d2.name)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Request must include "peer_device" and "peer_interface" filters.' });
  });
});

describe('cable filters through terminations', () => {
  it('matches a cable by the device, site or circuit termination at either end', async () => {
    const { d1, d2, site, a, c1, c2 } = await circuitPath();
    const ids = async (q: string) => (await get(`/api/dcim/cables/?${q}`)).results.map((c: Json) => c.id).sort();
    expect(await ids(`device_id=${d1.id}`)).toEqual([c1.id]);
    expect(await ids(`device=${encodeURIComponent(d2.name)}`)).toEqual([c2.id]);
    expect(await ids(`site_id=${site.id}`)).toEqual([c1.id, c2.id].sort());
    expect(await ids(`circuittermination_id=${a.id}`)).toEqual([c1.id]);
    expect(await ids(`termination_a_type=${CT}&site=${site.slug}`)).toEqual([c2.id]);
    expect(await ids(`site=${site.slug}&unterminated=true`)).toEqual([]);
  });
});

describe('statement count of an interface list with paths', () => {
  it('does not grow with the page size', async () => {
    const d = await makeDevice(t);
    const far = await makeDevice(t);
    for (let i = 0; i < 16; i++) {
      const [x, y] = [await makeInterface(t, d, { name: `p${i}` }), await makeInterface(t, far, { name: `p${i}` })];
      await makeCable(t, x, y);
    }
    const cost = async (limit: number) => {
      const before = t.db.stats.queries;
      const res = await t.get(`/api/dcim/interfaces/?device_id=${d.id}&limit=${limit}&render=${uniq('r')}`);
      expect(res.json().results).toHaveLength(limit);
      expect(res.json().results.every((r: Json) => r.connected_endpoints?.[0]?.device?.id === far.id)).toBe(true);
      return t.db.stats.queries - before;
    };
    const cheapest = async (limit: number) => Math.min(await cost(limit), await cost(limit));
    expect(await cheapest(15)).toBe(await cheapest(2));
  });
});

describe('the path routes in the OpenAPI document', () => {
  it('documents trace, paths and connected-device as they answer', async () => {
    const validator = createResponseValidator((await t.get('/api/schema/?format=json')).json());
    const { d2, i1, i2, z } = await circuitPath();
    const urls = [
      `/api/dcim/interfaces/${i1.id}/trace/`,
      `/api/circuits/circuit-terminations/${z.id}/paths/`,
      `/api/dcim/connected-device/?peer_device=${encodeURIComponent(d2.name)}&peer_interface=${encodeURIComponent(i2.name)}`,
      '/api/dcim/connected-device/?peer_device=x',
    ];
    for (const url of urls) {
      const res = await t.get(url);
      expect(validator.check('GET', url, res.statusCode, res.body)).toEqual([]);
    }
    expect(validator.seen.size).toBe(3);
  });
});
