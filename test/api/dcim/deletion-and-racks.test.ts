import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  make,
  makeCable,
  makeDevice,
  makeInterface,
  makeRack,
  makeSite,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();

describe('deletion (PROTECT and CASCADE as NetBox)', () => {
  it('answers 409 naming the racks and devices of a site, and deletes nothing', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site);
    const device = await makeDevice(t, { site: site.id });
    const res = await t.del(`/api/dcim/sites/${site.id}/`);
    expect(res.statusCode).toBe(409);
    const detail = res.json().detail as string;
    expect(detail).toContain(`${rack.name} (${rack.id})`);
    expect(detail).toContain(`${device.name} (${device.id})`);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(200);
    // in a bulk delete one protected site aborts the whole request
    const free = await makeSite(t);
    expect((await t.del('/api/dcim/sites/', [{ id: free.id }, { id: site.id }])).statusCode).toBe(409);
    expect((await t.get(`/api/dcim/sites/${free.id}/`)).statusCode).toBe(200);
  });

  it('cascades a device deletion to its interfaces, logging each, and frees the cable peer', async () => {
    const d = await makeDevice(t);
    const [i1, i2] = [await makeInterface(t, d), await makeInterface(t, d)];
    const peer = await makeInterface(t, await makeDevice(t));
    const cable = await makeCable(t, i1, peer);
    const res = await t.del(`/api/dcim/devices/${d.id}/`);
    expect(res.statusCode).toBe(204);
    for (const i of [i1, i2]) expect((await t.get(`/api/dcim/interfaces/${i.id}/`)).statusCode).toBe(404);
    const changes = await get(`/api/extras/object-changes/?request_id=${res.headers['x-request-id']}&limit=50`);
    const logged = changes.results
      .map((r: Json) => `${r.action.value} ${r.changed_object_type} ${r.changed_object_id}`)
      .sort();
    expect(logged).toEqual(
      [`delete dcim.device ${d.id}`, `delete dcim.interface ${i1.id}`, `delete dcim.interface ${i2.id}`].sort(),
    );
    const iface = changes.results.find((r: Json) => r.changed_object_id === i1.id);
    expect(iface).toMatchObject({ related_object_type: 'dcim.device', related_object_id: d.id });
    // the cable stays with one end; the termination of the deleted interface is gone
    const c = await get(`/api/dcim/cables/${cable.id}/`);
    expect(c.a_terminations).toEqual([]);
    expect(c.b_terminations.map((x: Json) => x.object_id)).toEqual([peer.id]);
  });

  it('protects a device type in use and a role in use', async () => {
    const d = await makeDevice(t);
    expect((await t.del(`/api/dcim/device-types/${d.device_type.id}/`)).statusCode).toBe(409);
    const res = await t.del(`/api/dcim/device-roles/${d.role.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/1 dependent objects/);
  });
});

describe('locations and racks', () => {
  it('keeps a location tree inside one site with names unique among siblings', async () => {
    const [s1, s2] = [await makeSite(t), await makeSite(t)];
    const top = await make(t, '/api/dcim/locations/', { name: 'Floor 1', slug: 'floor-1', site: s1.id });
    await make(t, '/api/dcim/locations/', { name: 'Floor 1', slug: 'floor-1', site: s2.id });
    const child = await make(t, '/api/dcim/locations/', {
      name: 'Room 1',
      slug: 'room-1',
      site: s1.id,
      parent: top.id,
    });
    expect(child._depth).toBe(1);
    const dup = await t.post('/api/dcim/locations/', { name: 'Floor 1', slug: uniq('x'), site: s1.id });
    expect(dup.json()).toHaveProperty('__all__');
    const cross = await t.post('/api/dcim/locations/', {
      name: uniq('x'),
      slug: uniq('x'),
      site: s2.id,
      parent: top.id,
    });
    expect(cross.json()).toEqual({ parent: ['Parent location must belong to the same site.'] });
    const rack = await makeRack(t, s1, { location: child.id });
    await makeDevice(t, { site: s1.id, location: child.id, rack: rack.id });
    const counted = await get(`/api/dcim/locations/${top.id}/`);
    expect(counted).toMatchObject({ rack_count: 1, device_count: 1 });
    expect((await get(`/api/dcim/racks/?location_id=${top.id}`)).count).toBe(1);
  });

  it('validates racks: location in the site, units, and name unique per location', async () => {
    const [s1, s2] = [await makeSite(t), await makeSite(t)];
    const loc = await make(t, '/api/dcim/locations/', { name: uniq('l'), slug: uniq('l'), site: s2.id });
    expect(
      (await t.post('/api/dcim/racks/', { name: uniq('r'), site: s1.id, location: loc.id })).json(),
    ).toHaveProperty('location');
    expect(
      (await t.post('/api/dcim/racks/', { name: uniq('r'), site: s1.id, outer_width: 600 })).json(),
    ).toHaveProperty('outer_unit');
    const r = await makeRack(t, s2, { name: 'R1', location: loc.id, facility_id: 'F-1' });
    expect(r.display).toBe('R1 (F-1)');
    expect(r.width).toEqual({ value: 19, label: '19 inches' });
    expect((await t.post('/api/dcim/racks/', { name: 'R1', site: s2.id, location: loc.id })).json()).toHaveProperty(
      '__all__',
    );
  });

  it('reserves units within the rack height, sorted', async () => {
    const rack = await makeRack(t, await makeSite(t), { u_height: 10 });
    const user = await make(t, '/api/users/users/', { username: uniq('u'), password: 'Pass-word-1' });
    const ok = await make(t, '/api/dcim/rack-reservations/', {
      rack: rack.id,
      units: [3, 1, 2, 2],
      user: user.id,
      description: 'hold',
    });
    expect(ok.units).toEqual([1, 2, 3]);
    expect(ok.display).toBe(`Reservation for rack ${rack.name}`);
    const bad = await t.post('/api/dcim/rack-reservations/', {
      rack: rack.id,
      units: [9, 11],
      user: user.id,
      description: 'x',
    });
    expect(bad.json()).toEqual({ units: ['Invalid unit(s) for 10U rack: 11'] });
    expect((await get(`/api/dcim/rack-reservations/?user=${user.username}`)).count).toBe(1);
  });
});
