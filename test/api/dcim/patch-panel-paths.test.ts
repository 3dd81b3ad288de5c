/**
 * Stored cable paths through patch panels (front port -> rear port -> trunk -> rear port -> front
 * port), stacked positions, splits, and the power and console kinds: what NetBox 3.4's
 * CablePath.from_origin records, seen through connected endpoints, trace and paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  make,
  makeDevice,
  makeInterface,
  cableBetween,
  end,
  makePowerFeed,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const iface = (id: number) => get(`/api/dcim/interfaces/${id}/`);
const IF = 'dcim.interface';
const FP = 'dcim.frontport';
const RP = 'dcim.rearport';
const idsOf = (objs: Json[]) => objs.map((o) => o.id);
/** a trace as [near ids, cable id or null, far ids] */
const traceIds = async (url: string) =>
  ((await get(url)) as Json[][]).map((seg) => [
    idsOf(seg[0] as Json[]),
    seg[1] ? (seg[1] as Json).id : null,
    idsOf(seg[2] as Json[]),
  ]);

const rearPort = (device: Json, positions = 1) =>
  make(t, '/api/dcim/rear-ports/', { device: device.id, name: uniq('rp'), type: '8p8c', positions });
const frontPort = (device: Json, rear: Json, position = 1) =>
  make(t, '/api/dcim/front-ports/', {
    device: device.id,
    name: uniq('fp'),
    type: '8p8c',
    rear_port: rear.id,
    rear_port_position: position,
  });

/** two patch panels with one position each: iA - c1 - FP1 | RP1 - c2 - RP2 | FP2 - c3 - iB */
async function patchedPair() {
  const [pp1, pp2] = [await makeDevice(t), await makeDevice(t)];
  const [rp1, rp2] = [await rearPort(pp1), await rearPort(pp2)];
  const [fp1, fp2] = [await frontPort(pp1, rp1), await frontPort(pp2, rp2)];
  const [iA, iB] = [await makeInterface(t, await makeDevice(t)), await makeInterface(t, await makeDevice(t))];
  const c1 = await cableBetween(t, end(IF, iA), end(FP, fp1));
  const c2 = await cableBetween(t, end(RP, rp1), end(RP, rp2));
  const c3 = await cableBetween(t, end(FP, fp2), end(IF, iB));
  return { rp1, rp2, fp1, fp2, iA, iB, c1, c2, c3 };
}

describe('paths through patch panels', () => {
  it('connects the interfaces at both ends through front and rear ports', async () => {
    const { rp1, rp2, fp1, fp2, iA, iB, c1, c2, c3 } = await patchedPair();
    const a = await iface(iA.id);
    expect(idsOf(a.connected_endpoints)).toEqual([iB.id]);
    expect(a.connected_endpoints_reachable).toBe(true);
    expect(idsOf(a.link_peers)).toEqual([fp1.id]);
    expect(idsOf((await iface(iB.id)).connected_endpoints)).toEqual([iA.id]);
    expect(await traceIds(`/api/dcim/interfaces/${iA.id}/trace/`)).toEqual([
      [[iA.id], c1.id, [fp1.id]],
      [[rp1.id], c2.id, [rp2.id]],
      [[fp2.id], c3.id, [iB.id]],
    ]);
    const paths = await get(`/api/dcim/rear-ports/${rp1.id}/paths/`);
    expect(paths.map((p: Json) => p.path[0][0].id).sort()).toEqual([iA.id, iB.id].sort());
    expect(paths.every((p: Json) => p.is_complete && p.is_active && !p.is_split)).toBe(true);
    expect((await get(`/api/dcim/front-ports/${fp2.id}/paths/`)).length).toBe(2);
    // front and rear ports are not path endpoints
    expect(await get(`/api/dcim/front-ports/${fp1.id}/`)).not.toHaveProperty('connected_endpoints');
  });

  it('cuts every endpoint when the trunk goes and mends them when a new trunk comes', async () => {
    const { rp1, rp2, fp1, iA, iB, c1, c2 } = await patchedPair();
    expect((await t.del(`/api/dcim/cables/${c2.id}/`)).statusCode).toBe(204);
    for (const i of [iA, iB]) {
      const cut = await iface(i.id);
      expect([cut.connected_endpoints, cut.connected_endpoints_reachable]).toEqual([null, false]);
    }
    // the path stops at the rear port, padded as NetBox pads it
    expect(await traceIds(`/api/dcim/interfaces/${iA.id}/trace/`)).toEqual([
      [[iA.id], c1.id, [fp1.id]],
      [[rp1.id], null, []],
    ]);
    await cableBetween(t, end(RP, rp2), end(RP, rp1), { status: 'planned' });
    const a = await iface(iA.id);
    expect(idsOf(a.connected_endpoints)).toEqual([iB.id]);
    expect(a.connected_endpoints_reachable).toBe(false);
  });

  it('retraces when a front port in the middle is deleted', async () => {
    const { fp2, iA, iB } = await patchedPair();
    expect((await t.del(`/api/dcim/front-ports/${fp2.id}/`)).statusCode).toBe(204);
    expect((await iface(iA.id)).connected_endpoints).toBeNull();
    expect((await iface(iB.id)).connected_endpoints).toBeNull();
  });
});

describe('rear ports with several positions', () => {
  it('keeps each front port position through a trunk (the position stack)', async () => {
    const [pp1, pp2] = [await makeDevice(t), await makeDevice(t)];
    const [rp1, rp2] = [await rearPort(pp1, 2), await rearPort(pp2, 2)];
    const [f1a, f1b, f2a, f2b] = [
      await frontPort(pp1, rp1, 1),
      await frontPort(pp1, rp1, 2),
      await frontPort(pp2, rp2, 1),
      await frontPort(pp2, rp2, 2),
    ];
    const ifs: Json[] = [];
    for (let i = 0; i < 4; i++) ifs.push(await makeInterface(t, await makeDevice(t)));
    const [iA, iB, iC, iD] = ifs as [Json, Json, Json, Json];
    await cableBetween(t, end(IF, iA), end(FP, f1a));
    await cableBetween(t, end(IF, iB), end(FP, f1b));
    await cableBetween(t, end(FP, f2a), end(IF, iC));
    await cableBetween(t, end(FP, f2b), end(IF, iD));
    await cableBetween(t, end(RP, rp1), end(RP, rp2));
    expect(idsOf((await iface(iA.id)).connected_endpoints)).toEqual([iC.id]);
    expect(idsOf((await iface(iB.id)).connected_endpoints)).toEqual([iD.id]);
    expect(idsOf((await iface(iD.id)).connected_endpoints)).toEqual([iB.id]);
    expect((await get(`/api/dcim/rear-ports/${rp2.id}/paths/`)).length).toBe(4);
  });

  it('splits when a cable reaches a rear port of several positions with no position to follow', async () => {
    const rp = await rearPort(await makeDevice(t), 2);
    const i = await makeInterface(t, await makeDevice(t));
    const c = await cableBetween(t, end(IF, i), end(RP, rp));
    const paths = await get(`/api/dcim/rear-ports/${rp.id}/paths/`);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatchObject({ is_split: true, is_complete: false });
    expect(await traceIds(`/api/dcim/interfaces/${i.id}/trace/`)).toEqual([[[i.id], c.id, [rp.id]]]);
    expect((await iface(i.id)).connected_endpoints).toBeNull();
  });
});

describe('power and console paths', () => {
  it('connects a power port to a power feed and to a power outlet', async () => {
    const d = await makeDevice(t);
    const pp = await make(t, '/api/dcim/power-ports/', { device: d.id, name: uniq('psu') });
    const feed = await makePowerFeed(t);
    const c = await cableBetween(t, end('dcim.powerfeed', feed), end('dcim.powerport', pp));
    const f = await get(`/api/dcim/power-feeds/${feed.id}/`);
    expect([f.connected_endpoints_type, idsOf(f.connected_endpoints), f.connected_endpoints_reachable]).toEqual([
      'dcim.powerport',
      [pp.id],
      true,
    ]);
    expect(idsOf((await get(`/api/dcim/power-ports/${pp.id}/`)).connected_endpoints)).toEqual([feed.id]);
    expect(await traceIds(`/api/dcim/power-feeds/${feed.id}/trace/`)).toEqual([[[feed.id], c.id, [pp.id]]]);
    expect((await get(`/api/dcim/cables/?powerfeed_id=${feed.id}`)).results.map((r: Json) => r.id)).toEqual([c.id]);
    expect((await get(`/api/dcim/cables/?device_id=${d.id}`)).results.map((r: Json) => r.id)).toEqual([c.id]);
    const pp2 = await make(t, '/api/dcim/power-ports/', { device: d.id, name: uniq('psu') });
    const outlet = await make(t, '/api/dcim/power-outlets/', { device: (await makeDevice(t)).id, name: uniq('out') });
    await cableBetween(t, end('dcim.poweroutlet', outlet), end('dcim.powerport', pp2));
    expect(idsOf((await get(`/api/dcim/power-outlets/${outlet.id}/`)).connected_endpoints)).toEqual([pp2.id]);
  });

  it('connects a console port to a console server port, and refuses incompatible kinds', async () => {
    const cp = await make(t, '/api/dcim/console-ports/', { device: (await makeDevice(t)).id, name: uniq('con') });
    const csp = await make(t, '/api/dcim/console-server-ports/', {
      device: (await makeDevice(t)).id,
      name: uniq('ttyS'),
    });
    const outlet = await make(t, '/api/dcim/power-outlets/', { device: (await makeDevice(t)).id, name: uniq('out') });
    const bad = await t.post('/api/dcim/cables/', {
      a_terminations: end('dcim.consoleport', cp),
      b_terminations: end('dcim.poweroutlet', outlet),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ __all__: ['Incompatible termination types: consoleport and poweroutlet'] });
    await cableBetween(t, end('dcim.consoleport', cp), end('dcim.consoleserverport', csp));
    expect(idsOf((await get(`/api/dcim/console-server-ports/${csp.id}/`)).connected_endpoints)).toEqual([cp.id]);
    expect((await get(`/api/dcim/console-ports/${cp.id}/trace/`)).length).toBe(1);
  });
});
