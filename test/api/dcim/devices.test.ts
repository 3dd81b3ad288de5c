import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeDevice,
  makeDeviceType,
  makeInterface,
  makeRack,
  makeRole,
  makeSite,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('device role as device_role (3.4) and role (3.6+)', () => {
  it('accepts either name on write and renders both with the same nested role', async () => {
    const role = await makeRole(t);
    const a = await makeDevice(t, { device_role: role.id });
    const b = await makeDevice(t, { role: { slug: role.slug } });
    for (const d of [a, b]) {
      expect(d.role).toMatchObject({ id: role.id, slug: role.slug });
      expect(d.device_role).toEqual(d.role);
    }
    const other = await makeRole(t);
    const res = await t.patch(`/api/dcim/devices/${a.id}/`, { role: other.id });
    expect(res.json().device_role.id).toBe(other.id);
    const res2 = await t.patch(`/api/dcim/devices/${a.id}/`, { device_role: role.id });
    expect(res2.json().role.id).toBe(role.id);
  });

  it('requires a role on create', async () => {
    const [site, type] = [await makeSite(t), await makeDeviceType(t)];
    const res = await t.post('/api/dcim/devices/', { name: uniq('dev'), site: site.id, device_type: type.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ device_role: ['This field is required.'] });
  });

  it('filters by role, role_id and device_role_id, and ignores device_role= as NetBox 3.4 does', async () => {
    const role = await makeRole(t);
    const d = await makeDevice(t, { role: role.id });
    const other = await makeDevice(t);
    for (const q of [`role=${role.slug}`, `role_id=${role.id}`, `device_role_id=${role.id}`]) {
      expect(ids((await t.get(`/api/dcim/devices/?${q}`)).json()), q).toEqual([d.id]);
    }
    // NetBox 3.4 declares no device_role= filter on devices: the name is ignored (undeclared-fk-filters.ts)
    const both = `id=${d.id}&id=${other.id}&ordering=id`;
    for (const value of [role.slug, String(role.id)]) {
      expect(ids((await t.get(`/api/dcim/devices/?${both}&device_role=${value}`)).json())).toEqual([d.id, other.id]);
    }
  });
});

describe('device representations', () => {
  it('carries display_name beside display in the full, brief and nested forms', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site);
    const d = await makeDevice(t, { site: site.id, rack: rack.id });
    expect(d.display_name).toBe(d.name);
    expect(d.display).toBe(d.name);
    const brief = (await t.get(`/api/dcim/devices/${d.id}/?brief=1`)).json();
    expect(Object.keys(brief).sort()).toEqual(['display', 'display_name', 'id', 'name', 'url']);
    const iface = await makeInterface(t, d);
    expect(Object.keys(iface.device).sort()).toEqual(['display', 'display_name', 'id', 'name', 'url']);
    expect(iface.device.display_name).toBe(d.name);
    expect(d.rack).toMatchObject({ id: rack.id, name: rack.name });
  });

  it('displays an unnamed device as "<manufacturer> <model> (<id>)"', async () => {
    const type = await makeDeviceType(t);
    const mfr = (await t.get(`/api/dcim/manufacturers/${type.manufacturer.id}/`)).json();
    const d = await makeDevice(t, { name: null, device_type: type.id });
    expect(d.display).toBe(`${mfr.name} ${type.model} (${d.id})`);
    expect(d.display_name).toBe(d.display);
  });
});

describe('device name uniqueness', () => {
  it('is per site case-insensitively without a tenant, per site and tenant with one; unnamed devices unlimited', async () => {
    const site = await makeSite(t);
    const name = uniq('Core');
    await makeDevice(t, { site: site.id, name });
    const dup = await t.post('/api/dcim/devices/', { ...(await base(site)), name: name.toUpperCase() });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ __all__: ['Device name must be unique per site.'] });
    const tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('tenant'), slug: uniq('tenant') });
    await makeDevice(t, { site: site.id, name, tenant: tenant.id });
    const dupTenant = await t.post('/api/dcim/devices/', {
      ...(await base(site)),
      name: name.toLowerCase(),
      tenant: tenant.id,
    });
    expect(dupTenant.json()).toEqual({ __all__: ['Constraint “dcim_device_unique_name_site_tenant” is violated.'] });
    await makeDevice(t, { name, site: (await makeSite(t)).id });
    await makeDevice(t, { site: site.id, name: null });
    await makeDevice(t, { site: site.id, name: null });
  });
});

async function base(site: Json) {
  return { site: site.id, device_type: (await makeDeviceType(t)).id, device_role: (await makeRole(t)).id };
}

describe('device placement rules', () => {
  it('refuses a rack or location of another site', async () => {
    const [s1, s2] = [await makeSite(t), await makeSite(t)];
    const rack = await makeRack(t, s2);
    const loc = await make(t, '/api/dcim/locations/', { name: uniq('loc'), slug: uniq('loc'), site: s2.id });
    const res = await t.post('/api/dcim/devices/', { ...(await base(s1)), rack: rack.id, location: loc.id });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['location', 'rack']);
  });

  it('needs a rack for face and position, a face for a position, and free space', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site, { u_height: 10 });
    const type = await makeDeviceType(t, { u_height: 2 });
    const b = { ...(await base(site)), device_type: type.id };
    expect((await t.post('/api/dcim/devices/', { ...b, face: 'front' })).json()).toHaveProperty('face');
    expect((await t.post('/api/dcim/devices/', { ...b, position: 3 })).json()).toHaveProperty('position');
    expect((await t.post('/api/dcim/devices/', { ...b, rack: rack.id, position: 3 })).json()).toEqual({
      face: ['Must specify rack face when defining rack position.'],
    });
    await make(t, '/api/dcim/devices/', { ...b, name: uniq('d'), rack: rack.id, position: 3, face: 'front' });
    const clash = await t.post('/api/dcim/devices/', {
      ...b,
      name: uniq('d'),
      rack: rack.id,
      position: 4,
      face: 'rear',
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().position[0]).toMatch(/^U4 is already occupied/);
    const tooHigh = await t.post('/api/dcim/devices/', {
      ...b,
      name: uniq('d'),
      rack: rack.id,
      position: 10,
      face: 'front',
    });
    expect(tooHigh.json().position[0]).toMatch(/^U10 is already occupied/);
    await make(t, '/api/dcim/devices/', { ...b, name: uniq('d'), rack: rack.id, position: 5, face: 'front' });
  });

  it('lets half-depth devices share a unit from both faces, and a device move within its own units', async () => {
    const site = await makeSite(t);
    const rack = await makeRack(t, site, { u_height: 10 });
    const half = await makeDeviceType(t, { u_height: 1, is_full_depth: false });
    const full = await makeDeviceType(t, { u_height: 2 });
    const b = await base(site);
    const at = (type: Json, position: number, face: string) => ({
      ...b,
      device_type: type.id,
      name: uniq('d'),
      rack: rack.id,
      position,
      face,
    });
    // one request: the front and rear halves of U1 and U2, then a full-depth device over U2 clashes with both
    const bulk = await t.post('/api/dcim/devices/', [
      at(half, 1, 'front'),
      at(half, 1, 'rear'),
      at(half, 2, 'rear'),
      at(full, 3, 'front'),
    ]);
    expect(bulk.statusCode).toBe(201);
    const [, , , big] = bulk.json();
    const over = await t.post('/api/dcim/devices/', at(full, 2, 'front'));
    expect(over.json().position[0]).toMatch(/^U2 is already occupied/);
    // a stored half-depth device blocks only its own face, a stored full-depth one both
    expect((await t.post('/api/dcim/devices/', at(half, 2, 'front'))).statusCode).toBe(201);
    expect((await t.post('/api/dcim/devices/', at(half, 4, 'rear'))).json().position[0]).toMatch(
      /^U4 is already occupied/,
    );
    // moving the 2U device up one unit overlaps only the units it holds itself
    const moved = await t.patch(`/api/dcim/devices/${big.id}/`, { position: 4 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().position).toBe(4);
  });

  it('keeps (virtual_chassis, vc_position) unique and needs a position in a chassis', async () => {
    const vc = await make(t, '/api/dcim/virtual-chassis/', { name: uniq('vc') });
    await makeDevice(t, { virtual_chassis: vc.id, vc_position: 1 });
    const dup = await t.post('/api/dcim/devices/', {
      ...(await base(await makeSite(t))),
      virtual_chassis: vc.id,
      vc_position: 1,
    });
    expect(dup.json()).toEqual({ __all__: ['Device with this Virtual chassis and Vc position already exists.'] });
    const none = await t.post('/api/dcim/devices/', { ...(await base(await makeSite(t))), virtual_chassis: vc.id });
    expect(none.json()).toHaveProperty('vc_position');
    expect((await t.get(`/api/dcim/virtual-chassis/${vc.id}/`)).json().member_count).toBe(1);
  });
});

describe('GET /api/dcim/devices/ filters', () => {
  it('filters by site, region, site_group, manufacturer, name (case-insensitive), serial, mac_address, status', async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('r'), slug: uniq('r') });
    const group = await make(t, '/api/dcim/site-groups/', { name: uniq('g'), slug: uniq('g') });
    const site = await makeSite(t, { region: region.id, group: group.id });
    const type = await makeDeviceType(t);
    const name = uniq('Edge-Router');
    const d = await makeDevice(t, { site: site.id, device_type: type.id, name, serial: 'ABC123', status: 'planned' });
    await makeInterface(t, d, { mac_address: '00-1a-2b-3c-4d-5e' });
    const other = await makeDevice(t, { site: site.id });
    const q = async (s: string) => ids((await t.get(`/api/dcim/devices/?${s}&ordering=id`)).json());
    expect(await q(`site=${site.slug}`)).toEqual([d.id, other.id]);
    expect(await q(`site_id=${site.id}&status=planned`)).toEqual([d.id]);
    expect(await q(`region=${region.slug}`)).toEqual([d.id, other.id]);
    expect(await q(`region_id=${region.id}&site_group_id=${group.id}`)).toEqual([d.id, other.id]);
    expect(await q(`manufacturer_id=${type.manufacturer.id}`)).toEqual([d.id]);
    expect(await q(`name=${name.toUpperCase()}`)).toEqual([d.id]);
    expect(await q(`serial=abc123`)).toEqual([d.id]);
    expect(await q(`mac_address=00:1A:2B:3C:4D:5E&site_id=${site.id}`)).toEqual([d.id]);
    expect(await q(`device_type_id=${type.id}`)).toEqual([d.id]);
    expect(await q(`has_primary_ip=false&site_id=${site.id}`)).toEqual([d.id, other.id]);
    const bad = await t.get('/api/dcim/devices/?region=no-such-region');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['region']);
  });

  it('orders by natural name by default', async () => {
    const site = await makeSite(t);
    const p = uniq('nat');
    for (const n of ['10', '9', '100']) await makeDevice(t, { site: site.id, name: `${p}-${n}` });
    const body = (await t.get(`/api/dcim/devices/?site_id=${site.id}`)).json();
    expect(body.results.map((r: Json) => r.name)).toEqual([`${p}-9`, `${p}-10`, `${p}-100`]);
  });
});
