import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, make, makeDevice, makeRack, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('POST /api/dcim/sites/', () => {
  it('creates a site and answers 201 with Location', async () => {
    const name = uniq('site');
    const res = await t.post('/api/dcim/sites/', { name, slug: name, status: 'planned' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.name).toBe(name);
    expect(body.status).toEqual({ value: 'planned', label: 'Planned' });
    expect(res.headers.location).toBe(`http://localhost:80/api/dcim/sites/${body.id}/`);
    expect(body.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.last_updated).toMatch(/Z$/);
  });
});

describe('GET /api/dcim/sites/<id>/ counts', () => {
  it('counts the devices, racks, prefixes, VLANs, virtual machines and circuit terminations at the site', async () => {
    const site = await makeSite(t);
    const other = await makeSite(t);
    await makeRack(t, site);
    await makeDevice(t, { site: site.id });
    for (const prefix of ['10.91.0.0/24', '10.91.1.0/24'])
      await make(t, '/api/ipam/prefixes/', { prefix, site: site.id });
    await make(t, '/api/ipam/prefixes/', { prefix: '10.91.2.0/24', site: other.id });
    await make(t, '/api/ipam/vlans/', { vid: 10, name: 'v10', site: site.id });
    const cluster = await make(t, '/api/virtualization/clusters/', {
      name: uniq('c'),
      type: (await make(t, '/api/virtualization/cluster-types/', { name: uniq('ct'), slug: uniq('ct') })).id,
      site: site.id,
    });
    await make(t, '/api/virtualization/virtual-machines/', { name: uniq('vm'), site: site.id, cluster: cluster.id });
    const provider = await make(t, '/api/circuits/providers/', { name: uniq('p'), slug: uniq('p') });
    const type = await make(t, '/api/circuits/circuit-types/', { name: uniq('t'), slug: uniq('t') });
    const circuit = await make(t, '/api/circuits/circuits/', {
      cid: uniq('cid'),
      provider: provider.id,
      type: type.id,
    });
    await make(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', site: site.id });
    const body = (await t.get(`/api/dcim/sites/${site.id}/`)).json();
    expect(body).toMatchObject({
      device_count: 1,
      rack_count: 1,
      prefix_count: 2,
      vlan_count: 1,
      virtualmachine_count: 1,
      circuit_count: 1,
    });
    const listed = (await t.get(`/api/dcim/sites/?id=${other.id}`)).json().results[0];
    expect(listed).toMatchObject({
      device_count: 0,
      rack_count: 0,
      prefix_count: 1,
      vlan_count: 0,
      virtualmachine_count: 0,
      circuit_count: 0,
    });
  });
});
