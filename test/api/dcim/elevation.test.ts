/**
 * GET /api/dcim/racks/<id>/elevation/ (NetBox 3.4 RackViewSet.elevation): the units of a face with
 * the devices occupying them, paginated, and the same face drawn as SVG.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { createResponseValidator } from '../../helpers/openapi-validator.js';
import { findAll, parseXml, textOf } from '../../helpers/xml.js';
import {
  uniq,
  grant,
  makeUser,
  type Json,
  make,
  makeDevice,
  makeDeviceType,
  makeRack,
  makeRole,
  makeSite,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const elevation = (rack: Json, query = '', token?: string | null) =>
  t.get(`/api/dcim/racks/${rack.id}/elevation/${query}`, token);
const units = async (rack: Json, query = '') => {
  const res = await elevation(rack, `?limit=0${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as Json[];
};
/** unit name -> device name (or null), for the occupied units only */
const occupancy = (list: Json[]) =>
  Object.fromEntries(list.filter((u) => u.occupied).map((u) => [u.name, u.device?.name ?? null]));

/** a 4U rack with a 2U front device at U1, a half-U rear device at U3 and a full-depth 1U at U4 */
async function smallRack(extra: Json = {}) {
  const site = await makeSite(t);
  const role = await makeRole(t);
  const rack = await makeRack(t, site, { u_height: 4, ...extra });
  const at = async (position: number, face: string, type: Json, name = uniq('dev')) =>
    makeDevice(t, { name, site: site.id, rack: rack.id, position, face, device_type: type.id, device_role: role.id });
  const front2u = await at(1, 'front', await makeDeviceType(t, { u_height: 2, is_full_depth: false }));
  const rearHalf = await at(3, 'rear', await makeDeviceType(t, { u_height: 0.5, is_full_depth: false }));
  const full = await at(4, 'front', await makeDeviceType(t, { u_height: 1, is_full_depth: true }));
  const zeroU = await makeDevice(t, {
    site: site.id,
    rack: rack.id,
    device_type: (await makeDeviceType(t, { u_height: 0 })).id,
    device_role: role.id,
  });
  return { site, role, rack, front2u, rearHalf, full, zeroU };
}

describe('GET /api/dcim/racks/<id>/elevation/ (JSON)', () => {
  it('lists the half-unit slots top to bottom with the shape NetBox 3.4 renders', async () => {
    const { rack, front2u } = await smallRack();
    const res = await elevation(rack);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(8);
    expect(body.results.map((u: Json) => u.name)).toEqual(['U4.5', 'U4', 'U3.5', 'U3', 'U2.5', 'U2', 'U1.5', 'U1']);
    expect(body.results.map((u: Json) => u.id)).toEqual([4.5, 4, 3.5, 3, 2.5, 2, 1.5, 1]);
    const u1 = body.results.at(-1);
    expect(Object.keys(u1).sort()).toEqual(['device', 'display', 'face', 'id', 'name', 'occupied']);
    expect(u1).toMatchObject({ name: 'U1', display: 'U1', face: { value: 'front', label: 'Front' }, occupied: true });
    expect(u1.device).toMatchObject({
      id: front2u.id,
      name: front2u.name,
      url: expect.stringContaining(`/api/dcim/devices/${front2u.id}/`),
    });
  });

  it('fills the units of each face: own-face devices, full-depth devices on both faces, no 0U devices', async () => {
    const { rack, front2u, rearHalf, full } = await smallRack();
    expect(occupancy(await units(rack))).toEqual({
      U1: front2u.name,
      'U1.5': front2u.name,
      U2: front2u.name,
      'U2.5': front2u.name,
      U4: full.name,
      'U4.5': full.name,
    });
    // the half-U device takes only the lower half of U3
    expect(occupancy(await units(rack, '&face=rear'))).toEqual({ U3: rearHalf.name, U4: full.name, 'U4.5': full.name });
    expect((await units(rack, '&face=rear')).every((u) => u.face.value === 'rear')).toBe(true);
  });

  it('leaves the excluded device out', async () => {
    const { rack, front2u, full } = await smallRack();
    expect(occupancy(await units(rack, `&exclude=${front2u.id}`))).toEqual({ U4: full.name, 'U4.5': full.name });
  });

  it('lists bottom to top when the rack numbers its units descending', async () => {
    const { rack } = await smallRack({ desc_units: true });
    expect((await units(rack)).map((u) => u.name)).toEqual(['U1', 'U1.5', 'U2', 'U2.5', 'U3', 'U3.5', 'U4', 'U4.5']);
  });

  it('filters units by q and paginates', async () => {
    const { rack } = await smallRack();
    expect((await units(rack, '&q=U3')).map((u) => u.name)).toEqual(['U3.5', 'U3']);
    // q also matches the unit number written with one decimal ("3.5")
    expect((await units(rack, '&q=.5')).map((u) => u.name)).toEqual(['U4.5', 'U3.5', 'U2.5', 'U1.5']);
    const page = (await elevation(rack, '?limit=3&offset=3')).json();
    expect(page.count).toBe(8);
    expect(page.results.map((u: Json) => u.name)).toEqual(['U3', 'U2.5', 'U2']);
    expect(page.next).toContain('offset=6');
    expect(page.previous).toContain('limit=3');
  });

  it('answers as the OpenAPI document describes (page, 400, 404)', async () => {
    const { rack } = await smallRack();
    const documented = createResponseValidator((await t.get('/api/schema/?format=json')).json());
    for (const url of [
      `/api/dcim/racks/${rack.id}/elevation/?limit=3`,
      `/api/dcim/racks/${rack.id}/elevation/?face=x`,
      '/api/dcim/racks/999999/elevation/',
    ]) {
      const res = await t.get(url);
      expect(documented.check('GET', url, res.statusCode, res.body)).toEqual([]);
    }
    expect(documented.seen).toContain('GET /api/dcim/racks/{id}/elevation/');
  });

  it('answers 400 for bad parameters, naming each', async () => {
    const { rack } = await smallRack();
    const res = await elevation(
      rack,
      '?face=side&render=pdf&unit_width=wide&exclude=x&expand_devices=maybe&unit_height=-1',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      face: ['"side" is not a valid choice.'],
      render: ['"pdf" is not a valid choice.'],
      unit_width: ['A valid integer is required.'],
      unit_height: ['Ensure this value is greater than or equal to 0.'],
      exclude: ['A valid integer is required.'],
      expand_devices: ['Must be a valid boolean.'],
    });
  });

  it('is 404 for a rack that does not exist or the user may not view, and hides devices the user may not view', async () => {
    const { rack, front2u, full } = await smallRack();
    expect((await t.get('/api/dcim/racks/999999/elevation/')).statusCode).toBe(404);
    const user = await makeUser(t);
    expect((await elevation(rack, '', user.token)).statusCode).toBe(403);
    await grant(t, {
      object_types: ['dcim.rack'],
      actions: ['view'],
      users: [user.id],
      constraints: { name: 'elsewhere' },
    });
    expect((await elevation(rack, '', user.token)).statusCode).toBe(404);
    await grant(t, { object_types: ['dcim.rack'], actions: ['view'], users: [user.id], constraints: { id: rack.id } });
    await grant(t, {
      object_types: ['dcim.device'],
      actions: ['view'],
      users: [user.id],
      constraints: { id: full.id },
    });
    const res = await elevation(rack, '?limit=0', user.token);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().results as Json[];
    // the 2U device still occupies its units, unnamed
    expect(occupancy(list)).toEqual({
      U1: null,
      'U1.5': null,
      U2: null,
      'U2.5': null,
      U4: full.name,
      'U4.5': full.name,
    });
    expect(JSON.stringify(list)).not.toContain(front2u.name);
  });
});

describe('GET /api/dcim/racks/<id>/elevation/?render=svg', () => {
  it('draws the face as well-formed SVG naming and linking each device, sized by the parameters', async () => {
    const { rack, front2u, full, rearHalf, role } = await smallRack();
    const res = await elevation(rack, '?render=svg&unit_width=200&unit_height=20&legend_width=40&margin_width=10');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const svg = parseXml(res.body);
    expect(svg.name).toBe('svg');
    // width = unit + legend + margin + 2 borders; height = units * unit height + 2 borders
    expect(svg.attrs).toMatchObject({ width: '254', height: '84' });
    const links = findAll(svg, 'a').filter((a) => a.attrs['data-device']);
    const labels = Object.fromEntries(links.map((a) => [a.attrs['data-device'], textOf(findAll(a, 'text')[0]!)]));
    expect(labels).toEqual({ [front2u.id]: front2u.name, [full.id]: full.name });
    expect(labels).not.toHaveProperty(String(rearHalf.id));
    const link2u = links.find((a) => a.attrs['data-device'] === String(front2u.id))!;
    // NetBox links a device to its page in the web interface, not the API
    expect(link2u.attrs.href).toMatch(new RegExp(`^https?://[^/]+/dcim/devices/${front2u.id}/$`));
    // an empty unit links to the add-device form at that unit and face, as NetBox's drawing does
    const adds = findAll(svg, 'a').filter((a) => a.attrs['data-add-unit']);
    expect(adds.length).toBeGreaterThan(0);
    for (const a of adds) {
      const url = new URL(a.attrs.href!);
      expect(url.pathname).toBe('/dcim/devices/add/');
      expect(url.searchParams.get('rack')).toBe(String(rack.id));
      expect(url.searchParams.get('face')).toBe('front');
      expect(url.searchParams.get('position')).toBe(a.attrs['data-add-unit']);
    }
    const rect = findAll(link2u, 'rect')[0]!;
    // U1-U2 of a 4U rack: the lowest two rows, 2 * 20 px tall, filled with the role's colour
    expect(rect.attrs).toMatchObject({ x: '42', y: '42', width: '200', height: '40' });
    expect(rect.attrs.style).toContain(role.color);
    expect(
      findAll(svg, 'text')
        .filter((e) => e.attrs.class === 'unit')
        .map(textOf),
    ).toEqual(['4', '3', '2', '1']);
  });

  it('uses NetBox default sizes, marks reserved units and draws the rear face', async () => {
    const { rack, rearHalf } = await smallRack();
    const user = await make(t, '/api/users/users/', { username: uniq('u'), password: 'Pass-word-1' });
    const resv = await make(t, '/api/dcim/rack-reservations/', {
      rack: rack.id,
      units: [2, 3],
      user: user.id,
      description: 'held <b>',
    });
    const res = await elevation(rack, '?render=svg&face=rear');
    const svg = parseXml(res.body);
    expect(svg.attrs).toMatchObject({ width: String(220 + 30 + 15 + 4), height: String(22 * 4 + 4) });
    const reservedSlots = findAll(svg, 'rect')
      .filter((r) => r.attrs.class === 'slot reserved')
      .map((r) => r.attrs['data-unit']);
    expect(reservedSlots.sort()).toEqual(['2', '3']);
    const margin = findAll(svg, 'a').find((a) => a.attrs.href?.includes(`/rack-reservations/${resv.id}/`))!;
    expect(textOf(findAll(margin, 'title')[0]!)).toBe(`Reservation #${resv.id}: held <b>`);
    expect(findAll(svg, 'a').some((a) => a.attrs['data-device'] === String(rearHalf.id))).toBe(true);
  });

  it('escapes device names', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site, { u_height: 2 });
    const name = '<script>alert("x")</script> & co';
    await makeDevice(t, { name, site: site.id, rack: rack.id, position: 1, face: 'front' });
    const res = await elevation(rack, '?render=svg');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;script&gt;');
    const svg = parseXml(res.body);
    expect(findAll(svg, 'script')).toEqual([]);
    expect(findAll(svg, 'text').map(textOf)).toContain(name);
  });
});
