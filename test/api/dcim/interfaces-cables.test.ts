import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, ids, type Json, makeCable, makeDevice, makeInterface, term } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();

describe('interfaces', () => {
  it('normalises the MAC address and filters by device_id and mac_address', async () => {
    const d = await makeDevice(t);
    const i = await makeInterface(t, d, { mac_address: '001a.2b3c.4d5f', type: '10gbase-x-sfpp', mtu: 9000 });
    await makeInterface(t, await makeDevice(t));
    expect(i.mac_address).toBe('00:1A:2B:3C:4D:5F');
    expect(i.type).toEqual({ value: '10gbase-x-sfpp', label: 'SFP+ (10GE)' });
    expect(ids(await get(`/api/dcim/interfaces/?device_id=${d.id}`))).toEqual([i.id]);
    expect(ids(await get(`/api/dcim/interfaces/?mac_address=00-1a-2b-3c-4d-5f`))).toEqual([i.id]);
    expect(ids(await get(`/api/dcim/interfaces/?device_id=${d.id}&kind=physical`))).toEqual([i.id]);
    expect(ids(await get(`/api/dcim/interfaces/?device_id=${d.id}&kind=virtual`))).toEqual([]);
  });

  it('keeps names unique per device and orders them naturally', async () => {
    const d = await makeDevice(t);
    for (const n of ['Gi0/10', 'Gi0/2', 'Gi0/1']) await makeInterface(t, d, { name: n });
    const dup = await t.post('/api/dcim/interfaces/', { device: d.id, name: 'Gi0/2', type: 'virtual' });
    expect(dup.json()).toEqual({ __all__: ['Interface with this Device and Name already exists.'] });
    const body = await get(`/api/dcim/interfaces/?device_id=${d.id}`);
    expect(body.results.map((r: Json) => r.name)).toEqual(['Gi0/1', 'Gi0/2', 'Gi0/10']);
  });

  it('keeps parent, bridge and lag on the same device, lag of type lag, parent only for virtual', async () => {
    const [d1, d2] = [await makeDevice(t), await makeDevice(t)];
    const lag = await makeInterface(t, d1, { type: 'lag', name: 'ae0' });
    const phys = await makeInterface(t, d1, { name: 'xe-0/0/0' });
    const foreign = await makeInterface(t, d2, { type: 'lag' });
    const member = await makeInterface(t, d1, { lag: lag.id });
    expect(member.lag).toMatchObject({ id: lag.id, name: 'ae0' });
    const bad = await t.post('/api/dcim/interfaces/', {
      device: d1.id,
      name: uniq('e'),
      type: '1000base-t',
      lag: foreign.id,
      bridge: foreign.id,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['bridge', 'lag']);
    expect(
      (
        await t.post('/api/dcim/interfaces/', { device: d1.id, name: uniq('e'), type: '1000base-t', lag: phys.id })
      ).json(),
    ).toHaveProperty('lag');
    expect(
      (
        await t.post('/api/dcim/interfaces/', { device: d1.id, name: uniq('e'), type: '1000base-t', parent: phys.id })
      ).json(),
    ).toEqual({
      parent: ['Only virtual interfaces may be assigned to a parent interface.'],
    });
    await makeInterface(t, d1, { type: 'virtual', parent: phys.id });
    const moved = await t.patch(`/api/dcim/interfaces/${phys.id}/`, { device: d2.id });
    expect(moved.json()).toEqual({ device: ['Components cannot be moved to a different device.'] });
  });

  it('renders the brief form per NetBox 3.4 and the nested form per the spec', async () => {
    const d = await makeDevice(t);
    const i = await makeInterface(t, d);
    const brief = await get(`/api/dcim/interfaces/${i.id}/?brief=1`);
    expect(Object.keys(brief).sort()).toEqual(['_occupied', 'cable', 'device', 'display', 'id', 'name', 'url']);
    expect(brief).toMatchObject({ cable: null, _occupied: false });
    const b = await makeInterface(t, await makeDevice(t));
    const cable = await makeCable(t, i, b);
    const nested = (await get(`/api/dcim/cables/${cable.id}/`)).a_terminations[0].object;
    expect(Object.keys(nested).sort()).toEqual([
      'cable',
      'connection_status',
      'device',
      'display',
      'id',
      'name',
      'url',
    ]);
    expect(nested.device).toMatchObject({ id: d.id, name: d.name, display_name: d.name });
    expect(nested.cable).toMatchObject({ id: cable.id, display: `#${cable.id}` });
    expect(nested.connection_status).toEqual({ value: 'connected', label: 'Connected' });
    expect((await get(`/api/dcim/interfaces/${i.id}/?brief=1`)).cable).toBe(cable.id);
  });
});

describe('count_ipaddresses', () => {
  it('counts the addresses assigned to each interface of a page, and none of a VM interface of the same id', async () => {
    const d = await makeDevice(t);
    const [a, b] = [await makeInterface(t, d), await makeInterface(t, d)];
    for (const address of ['10.93.0.1/24', '10.93.0.2/24']) {
      expect(
        (
          await t.post('/api/ipam/ip-addresses/', {
            address,
            assigned_object_type: 'dcim.interface',
            assigned_object_id: a.id,
          })
        ).statusCode,
      ).toBe(201);
    }
    expect((await get(`/api/dcim/interfaces/${a.id}/`)).count_ipaddresses).toBe(2);
    const page = await get(`/api/dcim/interfaces/?device_id=${d.id}&ordering=id`);
    expect(page.results.map((r: Json) => r.count_ipaddresses)).toEqual([2, 0]);
    expect((await get(`/api/dcim/interfaces/${b.id}/`)).count_ipaddresses).toBe(0);
  });
});

describe('cables', () => {
  it('connects two interfaces and sets cable, cable_end and link peers on both', async () => {
    const [a, b] = [await makeInterface(t, await makeDevice(t)), await makeInterface(t, await makeDevice(t))];
    const cable = await makeCable(t, a, b, { type: 'cat6', status: 'planned', label: uniq('c') });
    expect(cable.type).toBe('cat6');
    expect(cable.a_terminations).toEqual([
      { object_type: 'dcim.interface', object_id: a.id, object: expect.objectContaining({ id: a.id }) },
    ]);
    const ia = await get(`/api/dcim/interfaces/${a.id}/`);
    const ib = await get(`/api/dcim/interfaces/${b.id}/`);
    expect(ia).toMatchObject({
      cable: { id: cable.id, label: cable.label },
      cable_end: 'A',
      link_peers_type: 'dcim.interface',
      _occupied: true,
    });
    expect(ia.link_peers.map((p: Json) => p.id)).toEqual([b.id]);
    expect(ib).toMatchObject({ cable_end: 'B', link_peers_type: 'dcim.interface' });
    expect(ib.link_peers[0].connection_status).toEqual({ value: 'planned', label: 'Planned' });
    expect(ids(await get(`/api/dcim/interfaces/?cabled=true&id=${a.id}&id=${b.id}&ordering=id`))).toEqual([a.id, b.id]);
    expect(ids(await get(`/api/dcim/cables/?device_id=${ia.device.id}`))).toEqual([cable.id]);
    const terms = await get(`/api/dcim/cable-terminations/?cable=${cable.id}&ordering=cable_end`);
    expect(terms.results.map((r: Json) => [r.cable, r.cable_end, r.termination_type, r.termination_id])).toEqual([
      [cable.id, 'A', 'dcim.interface', a.id],
      [cable.id, 'B', 'dcim.interface', b.id],
    ]);
  });

  it('needs both ends, refuses virtual interfaces and interfaces already cabled', async () => {
    const d = await makeDevice(t);
    const [a, b, c] = [await makeInterface(t, d), await makeInterface(t, d), await makeInterface(t, d)];
    const virt = await makeInterface(t, d, { type: 'virtual' });
    const one = await t.post('/api/dcim/cables/', { a_terminations: term(a) });
    expect(one.json()).toEqual({ __all__: ['Must define A and B terminations when creating a new cable.'] });
    const v = await t.post('/api/dcim/cables/', { a_terminations: term(a), b_terminations: term(virt) });
    expect(v.statusCode).toBe(400);
    expect(v.json().b_terminations[0]).toMatch(/virtual/);
    await makeCable(t, a, b);
    const taken = await t.post('/api/dcim/cables/', { a_terminations: term(c), b_terminations: term(a) });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().b_terminations[0]).toMatch(/^Duplicate termination/);
    const cabledVirtual = await t.patch(`/api/dcim/interfaces/${a.id}/`, { type: 'virtual' });
    expect(cabledVirtual.json()).toHaveProperty('type');
  });

  it('frees the interfaces when the cable is deleted, and moves an end on PATCH', async () => {
    const d = await makeDevice(t);
    const [a, b, c] = [await makeInterface(t, d), await makeInterface(t, d), await makeInterface(t, d)];
    const cable = await makeCable(t, a, b);
    const patched = await t.patch(`/api/dcim/cables/${cable.id}/`, { b_terminations: term(c) });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await get(`/api/dcim/interfaces/${b.id}/`)).cable).toBeNull();
    expect((await get(`/api/dcim/interfaces/${c.id}/`)).cable_end).toBe('B');
    expect((await t.del(`/api/dcim/cables/${cable.id}/`)).statusCode).toBe(204);
    for (const i of [a, c]) {
      const body = await get(`/api/dcim/interfaces/${i.id}/`);
      expect(body).toMatchObject({
        cable: null,
        cable_end: '',
        link_peers: [],
        link_peers_type: null,
        _occupied: false,
      });
    }
    expect((await get(`/api/dcim/cable-terminations/?termination_id=${a.id}&termination_id=${c.id}`)).count).toBe(0);
  });

  it('connects an interface to a circuit termination and sets the cable on both', async () => {
    const n = () => ({ name: uniq('c'), slug: uniq('c') });
    const provider = (await t.post('/api/circuits/providers/', n())).json();
    const type = (await t.post('/api/circuits/circuit-types/', n())).json();
    const circuit = (
      await t.post('/api/circuits/circuits/', { cid: uniq('cid'), provider: provider.id, type: type.id })
    ).json();
    const site = (await t.post('/api/dcim/sites/', n())).json();
    const ct = (
      await t.post('/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', site: site.id })
    ).json();
    const i = await makeInterface(t, await makeDevice(t));
    const res = await t.post('/api/dcim/cables/', {
      a_terminations: term(i),
      b_terminations: [{ object_type: 'circuits.circuittermination', object_id: ct.id }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const cable = res.json();
    expect((await get(`/api/circuits/circuit-terminations/${ct.id}/`)).cable).toMatchObject({ id: cable.id });
    expect(await get(`/api/dcim/interfaces/${i.id}/`)).toMatchObject({
      link_peers_type: 'circuits.circuittermination',
    });
    expect((await t.del(`/api/dcim/cables/${cable.id}/`)).statusCode).toBe(204);
    expect((await get(`/api/circuits/circuit-terminations/${ct.id}/`)).cable).toBeNull();
  });
});
