/**
 * Circuit terminations through the HTTP API: plain term_side, exactly one of site and provider
 * network, one termination per side, display and brief form, filters, protected sites/networks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  make,
  type Json,
  ids,
  makeCircuit,
  makeManufacturer,
  makeProvider,
  makeRole,
  makeSite,
} from '../../factories/index.js';

const PATH = '/api/circuits/circuit-terminations/';
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('POST /api/circuits/circuit-terminations/', () => {
  it('renders term_side as a bare letter, display "<cid>: Termination A" and NetBox 3.4 fields', async () => {
    const c = await makeCircuit(t);
    const s = await makeSite(t);
    const term = await make(t, PATH, {
      circuit: c.id,
      term_side: 'A',
      site: s.id,
      pp_info: 'PP1',
      mark_connected: false,
    });
    expect(term.term_side).toBe('A');
    expect(term.display).toBe(`${c.cid}: Termination A`);
    expect(term.circuit).toEqual({ id: c.id, url: c.url, display: c.cid, cid: c.cid });
    expect(term).toMatchObject({
      cable: null,
      cable_end: '',
      link_peers: [],
      link_peers_type: null,
      _occupied: false,
      mark_connected: false,
    });
    const brief = (await t.get(`${PATH}${term.id}/?brief=1`)).json();
    expect(brief).toEqual({
      id: term.id,
      url: term.url,
      display: term.display,
      circuit: term.circuit,
      term_side: 'A',
      cable: null,
      _occupied: false,
    });
    expect((await t.patch(`${PATH}${term.id}/`, { mark_connected: true })).json()._occupied).toBe(true);
  });

  it('rejects a term_side other than A or Z', async () => {
    const res = await t.post(PATH, {
      circuit: (await makeCircuit(t)).id,
      term_side: 'B',
      site: (await makeSite(t)).id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ term_side: ['"B" is not a valid choice.'] });
  });

  it('needs exactly one of site and provider network', async () => {
    const c = await makeCircuit(t);
    const s = await makeSite(t);
    const pnet = await make(t, '/api/circuits/provider-networks/', { provider: c.provider.id, name: uniq('pnet') });
    const neither = await t.post(PATH, { circuit: c.id, term_side: 'A' });
    expect(neither.statusCode).toBe(400);
    expect(Object.keys(neither.json())).toEqual(['__all__']);
    const both = await t.post(PATH, { circuit: c.id, term_side: 'A', site: s.id, provider_network: pnet.id });
    expect(both.statusCode).toBe(400);
    expect(Object.keys(both.json())).toEqual(['__all__']);
    const term = await make(t, PATH, { circuit: c.id, term_side: 'A', site: s.id });
    // a PATCH that adds the other one fails; moving from site to network works
    expect((await t.patch(`${PATH}${term.id}/`, { provider_network: pnet.id })).statusCode).toBe(400);
    const moved = await t.patch(`${PATH}${term.id}/`, { provider_network: pnet.id, site: null });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ site: null, provider_network: { id: pnet.id } });
  });

  it('allows one termination per side of a circuit', async () => {
    const c = await makeCircuit(t);
    const s = await makeSite(t);
    await make(t, PATH, { circuit: c.id, term_side: 'A', site: s.id });
    const dup = await t.post(PATH, { circuit: c.id, term_side: 'A', site: s.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ __all__: ['Circuit termination with this Circuit and Termination already exists.'] });
    const bulk = await t.post(PATH, [
      { circuit: c.id, term_side: 'Z', site: s.id },
      { circuit: c.id, term_side: 'Z', site: s.id },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(await make(t, PATH, { circuit: c.id, term_side: 'Z', site: s.id })).toMatchObject({ term_side: 'Z' });
  });

  it('links the change record to the circuit', async () => {
    const c = await makeCircuit(t);
    const res = await t.post(PATH, { circuit: c.id, term_side: 'Z', site: (await makeSite(t)).id });
    const change = (await t.get(`/api/extras/object-changes/?request_id=${res.headers['x-request-id']}`)).json()
      .results[0];
    expect(change).toMatchObject({
      changed_object_type: 'circuits.circuittermination',
      related_object_type: 'circuits.circuit',
      related_object_id: c.id,
    });
  });
});

describe('GET /api/circuits/circuit-terminations/ filters', () => {
  let c: Json;
  let a: Json;
  let z: Json;
  let s: Json;
  let pnet: Json;
  beforeAll(async () => {
    c = await makeCircuit(t);
    s = await makeSite(t);
    pnet = await make(t, '/api/circuits/provider-networks/', { provider: c.provider.id, name: uniq('pnet') });
    a = await make(t, PATH, {
      circuit: c.id,
      term_side: 'A',
      site: s.id,
      port_speed: 1000,
      xconnect_id: uniq('xc'),
      mark_connected: true,
    });
    z = await make(t, PATH, { circuit: c.id, term_side: 'Z', provider_network: pnet.id, port_speed: 10000 });
  });

  it('filters by circuit_id, term_side and term_side__n', async () => {
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}`)).json())).toEqual([a.id, z.id]);
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&term_side=Z`)).json())).toEqual([z.id]);
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&term_side__n=Z`)).json())).toEqual([a.id]);
    const bad = await t.get(`${PATH}?term_side=Q`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['term_side']);
  });

  it('filters by site, site_id, provider_network_id and port_speed lookups', async () => {
    expect(ids((await t.get(`${PATH}?site=${s.slug}`)).json())).toEqual([a.id]);
    expect(ids((await t.get(`${PATH}?site_id=${s.id}`)).json())).toEqual([a.id]);
    expect(ids((await t.get(`${PATH}?provider_network_id=${pnet.id}`)).json())).toEqual([z.id]);
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&port_speed__gte=5000`)).json())).toEqual([z.id]);
  });

  it('filters by occupied and cabled, and finds by q (cid, cross-connect)', async () => {
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&occupied=true`)).json())).toEqual([a.id]);
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&occupied=false`)).json())).toEqual([z.id]);
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&cabled=true`)).json())).toEqual([]);
    expect(ids((await t.get(`${PATH}?q=${c.cid}`)).json())).toEqual([a.id, z.id]);
    expect(ids((await t.get(`${PATH}?q=${a.xconnect_id}`)).json())).toEqual([a.id]);
  });
});

describe('cabling (dcim cables ending on a termination)', () => {
  it('shows the cable, cable_end, link peers and _occupied, and filters by cabled', async () => {
    const c = await makeCircuit(t);
    const s = await makeSite(t);
    const term = await make(t, PATH, { circuit: c.id, term_side: 'A', site: s.id });
    const maker = await makeManufacturer(t);
    const model = uniq('model');
    const dt = await make(t, '/api/dcim/device-types/', { manufacturer: maker.id, model, slug: model });
    const role = await makeRole(t);
    const dev = await make(t, '/api/dcim/devices/', {
      name: uniq('dev'),
      site: s.id,
      device_type: dt.id,
      device_role: role.id,
    });
    const intf = await make(t, '/api/dcim/interfaces/', { device: dev.id, name: 'eth0', type: '1000base-t' });
    const cable = await make(t, '/api/dcim/cables/', {
      a_terminations: [{ object_type: 'dcim.interface', object_id: intf.id }],
      b_terminations: [{ object_type: 'circuits.circuittermination', object_id: term.id }],
    });
    const body = (await t.get(`${PATH}${term.id}/`)).json();
    expect(body).toMatchObject({
      cable: { id: cable.id },
      cable_end: 'B',
      link_peers_type: 'dcim.interface',
      _occupied: true,
    });
    expect(body.link_peers.map((p: Json) => p.id)).toEqual([intf.id]);
    expect((await t.get(`${PATH}${term.id}/?brief=1`)).json()).toMatchObject({ cable: cable.id, _occupied: true });
    expect(ids((await t.get(`${PATH}?circuit_id=${c.id}&cabled=true`)).json())).toEqual([term.id]);
    expect((await t.del(`/api/dcim/cables/${cable.id}/`)).statusCode).toBe(204);
    expect((await t.get(`${PATH}${term.id}/`)).json()).toMatchObject({
      cable: null,
      cable_end: '',
      link_peers: [],
      _occupied: false,
    });
  });
});

describe('protected references', () => {
  it('refuses to delete a site or a provider network that a termination uses', async () => {
    const c = await makeCircuit(t);
    const s = await makeSite(t);
    const pnet = await make(t, '/api/circuits/provider-networks/', { provider: c.provider.id, name: uniq('pnet') });
    await make(t, PATH, { circuit: c.id, term_side: 'A', site: s.id });
    await make(t, PATH, { circuit: c.id, term_side: 'Z', provider_network: pnet.id });
    const delSite = await t.del(`/api/dcim/sites/${s.id}/`);
    expect(delSite.statusCode).toBe(409);
    expect(delSite.json().detail).toContain('Termination A');
    expect((await t.del(`/api/circuits/provider-networks/${pnet.id}/`)).statusCode).toBe(409);
  });
});

describe('provider networks', () => {
  it('keeps names unique per provider', async () => {
    const p = await makeProvider(t);
    const other = await makeProvider(t);
    const name = uniq('pnet');
    await make(t, '/api/circuits/provider-networks/', { provider: p.id, name });
    const dup = await t.post('/api/circuits/provider-networks/', { provider: p.id, name });
    expect(dup.json()).toEqual({ __all__: ['Provider network with this Provider and Name already exists.'] });
    expect((await t.post('/api/circuits/provider-networks/', { provider: other.id, name })).statusCode).toBe(201);
    expect((await t.get(`/api/circuits/provider-networks/?provider=${p.slug}`)).json().count).toBe(1);
  });
});
