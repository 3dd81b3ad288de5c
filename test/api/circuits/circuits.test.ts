/**
 * Circuits through the HTTP API: representation (termination_a/_z nested, display, choices),
 * cid unique per provider, circuit_count, PROTECT of providers and types, cascade to terminations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, make, type Json, makeCircuit, makeCircuitType, makeProvider, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('GET /api/circuits/circuits/', () => {
  it('renders a new circuit with status active, display = cid and no terminations', async () => {
    const c = await makeCircuit(t);
    expect(c.display).toBe(c.cid);
    expect(c.status).toEqual({ value: 'active', label: 'Active' });
    expect(c.termination_a).toBeNull();
    expect(c.termination_z).toBeNull();
    expect(c.provider).toEqual({
      id: expect.any(Number),
      url: expect.any(String),
      display: expect.any(String),
      name: expect.any(String),
      slug: expect.any(String),
    });
    expect(Object.keys((await t.get(`/api/circuits/circuits/${c.id}/?brief=1`)).json()).sort()).toEqual([
      'cid',
      'display',
      'id',
      'url',
    ]);
  });

  it('nests termination_a and termination_z in the circuit (NetBox 3.4 shape)', async () => {
    const c = await makeCircuit(t);
    const site = await makeSite(t);
    const pnet = await make(t, '/api/circuits/provider-networks/', { provider: c.provider.id, name: uniq('pnet') });
    const a = await make(t, '/api/circuits/circuit-terminations/', {
      circuit: c.id,
      term_side: 'A',
      site: site.id,
      port_speed: 1000,
      upstream_speed: 500,
      xconnect_id: 'XC-1',
      description: 'a end',
    });
    const z = await make(t, '/api/circuits/circuit-terminations/', {
      circuit: c.id,
      term_side: 'Z',
      provider_network: pnet.id,
    });
    const body = (await t.get(`/api/circuits/circuits/${c.id}/`)).json();
    expect(body.termination_a).toEqual({
      id: a.id,
      url: `http://localhost:80/api/circuits/circuit-terminations/${a.id}/`,
      display: `${c.cid}: Termination A`,
      site: {
        id: site.id,
        url: `http://localhost:80/api/dcim/sites/${site.id}/`,
        display: site.name,
        name: site.name,
        slug: site.slug,
      },
      provider_network: null,
      port_speed: 1000,
      upstream_speed: 500,
      xconnect_id: 'XC-1',
      description: 'a end',
    });
    expect(body.termination_z).toMatchObject({
      id: z.id,
      display: `${c.cid}: Termination Z`,
      site: null,
      provider_network: { id: pnet.id, name: pnet.name },
    });
    const listed = (await t.get(`/api/circuits/circuits/?id=${c.id}`)).json().results[0];
    expect(listed.termination_a).toEqual(body.termination_a);
  });

  it('builds the terminations of a page with a constant number of statements', async () => {
    const p = await makeProvider(t);
    const ty = await makeCircuitType(t);
    const site = await makeSite(t);
    const cids = Array.from({ length: 20 }, () => ({ cid: uniq('bulk'), provider: p.id, type: ty.id }));
    const made = (await t.post('/api/circuits/circuits/', cids)).json() as Json[];
    await t.post(
      '/api/circuits/circuit-terminations/',
      made.flatMap((c) => [
        { circuit: c.id, term_side: 'A', site: site.id },
        { circuit: c.id, term_side: 'Z', site: site.id },
      ]),
    );
    const cost = async (limit: number) => {
      const before = t.db.stats.queries;
      // a parameter no filter knows makes each URL new, so the page is rendered, not served from the response cache
      const res = await t.get(
        `/api/circuits/circuits/?provider_id=${p.id}&limit=${limit}&offset=1&render=${uniq('r')}`,
      );
      expect(res.json().results).toHaveLength(limit);
      expect(res.json().results.every((r: Json) => r.termination_a && r.termination_z)).toBe(true);
      return t.db.stats.queries - before;
    };
    // the token and custom field caches may reload (after a write, or at their TTL) during one call,
    // so each size takes its cheaper of two runs
    const cheapest = async (limit: number) => Math.min(await cost(limit), await cost(limit));
    expect(await cheapest(15)).toBe(await cheapest(2));
  });
});

describe('circuit validation', () => {
  it('requires cid, provider and type', async () => {
    const res = await t.post('/api/circuits/circuits/', {});
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['cid', 'provider', 'type']);
  });

  it('keeps cid unique per provider, not globally', async () => {
    const c = await makeCircuit(t);
    const dup = await t.post('/api/circuits/circuits/', { cid: c.cid, provider: c.provider.id, type: c.type.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ __all__: ['Circuit with this Provider and Circuit ID already exists.'] });
    const other = await t.post('/api/circuits/circuits/', {
      cid: c.cid,
      provider: (await makeProvider(t)).id,
      type: c.type.id,
    });
    expect(other.statusCode, other.body).toBe(201);
  });

  it('rejects an unknown status and a negative commit rate', async () => {
    const c = await makeCircuit(t);
    const res = await t.patch(`/api/circuits/circuits/${c.id}/`, { status: 'bogus', commit_rate: -1 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['commit_rate', 'status']);
  });

  it('stores dates and the commit rate', async () => {
    const c = await makeCircuit(t, {
      install_date: '2023-02-03',
      termination_date: '2026-02-03',
      commit_rate: 50000,
      status: 'planned',
    });
    expect(c).toMatchObject({
      install_date: '2023-02-03',
      termination_date: '2026-02-03',
      commit_rate: 50000,
      status: { value: 'planned', label: 'Planned' },
    });
  });
});

describe('circuit_count', () => {
  it('counts circuits on providers and circuit types (full and brief)', async () => {
    const p = await makeProvider(t);
    const ty = await makeCircuitType(t);
    await t.post(
      '/api/circuits/circuits/',
      [1, 2, 3].map(() => ({ cid: uniq('cnt'), provider: p.id, type: ty.id })),
    );
    expect((await t.get(`/api/circuits/providers/${p.id}/`)).json().circuit_count).toBe(3);
    expect((await t.get(`/api/circuits/providers/${p.id}/?brief=1`)).json()).toMatchObject({
      name: p.name,
      slug: p.slug,
      circuit_count: 3,
    });
    expect((await t.get(`/api/circuits/circuit-types/?id=${ty.id}&brief=1`)).json().results[0].circuit_count).toBe(3);
    // inside a circuit the provider is nested without its count
    const c = (await t.get(`/api/circuits/circuits/?provider_id=${p.id}&limit=1`)).json().results[0];
    expect(c.provider).not.toHaveProperty('circuit_count');
  });
});

describe('deletion', () => {
  it('refuses to delete a provider or a circuit type that has circuits (409)', async () => {
    const c = await makeCircuit(t);
    for (const url of [`/api/circuits/providers/${c.provider.id}/`, `/api/circuits/circuit-types/${c.type.id}/`]) {
      const res = await t.del(url);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().detail).toContain(c.cid);
    }
    expect((await t.get(`/api/circuits/circuits/${c.id}/`)).statusCode).toBe(200);
  });

  it('refuses to delete a provider that has provider networks', async () => {
    const p = await makeProvider(t);
    await make(t, '/api/circuits/provider-networks/', { provider: p.id, name: uniq('pnet') });
    expect((await t.del(`/api/circuits/providers/${p.id}/`)).statusCode).toBe(409);
  });

  it('deletes the provider once its circuits are gone', async () => {
    const c = await makeCircuit(t);
    expect((await t.del(`/api/circuits/circuits/${c.id}/`)).statusCode).toBe(204);
    expect((await t.del(`/api/circuits/providers/${c.provider.id}/`)).statusCode).toBe(204);
  });

  it('deletes a circuit with its terminations and logs each deletion', async () => {
    const c = await makeCircuit(t);
    const site = await makeSite(t);
    const a = await make(t, '/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: site.id });
    const z = await make(t, '/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'Z', site: site.id });
    const del = await t.del(`/api/circuits/circuits/${c.id}/`);
    expect(del.statusCode).toBe(204);
    for (const id of [a.id, z.id])
      expect((await t.get(`/api/circuits/circuit-terminations/${id}/`)).statusCode).toBe(404);
    const changes = (await t.get(`/api/extras/object-changes/?request_id=${del.headers['x-request-id']}`)).json()
      .results as Json[];
    expect(changes.map((r) => `${r.action.value} ${r.changed_object_type}`).sort()).toEqual([
      'delete circuits.circuit',
      'delete circuits.circuittermination',
      'delete circuits.circuittermination',
    ]);
    // the site stays
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(200);
  });
});
