/**
 * Power panels and power feeds (NetBox 3.4): clean() rules, available_power on save, counts,
 * filters, and a feed's cable compatibility.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  make,
  makeDevice,
  makeInterface,
  makeRack,
  makeSite,
  end,
  makePowerFeed,
  makePowerPanel,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();
const panel = (site: Json, extra: Json = {}) => makePowerPanel(t, { ...extra, site: site.id });

describe('power panels', () => {
  it('keeps the location in the panel site and names unique per site', async () => {
    const [s1, s2] = [await makeSite(t), await makeSite(t)];
    const loc = await make(t, '/api/dcim/locations/', { name: uniq('loc'), slug: uniq('loc'), site: s2.id });
    const bad = await t.post('/api/dcim/power-panels/', { site: s1.id, name: 'p', location: loc.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      __all__: [`Location ${loc.name} (${s2.name}) is in a different site than ${s1.name}`],
    });
    const p = await panel(s2, { location: loc.id });
    const dup = await t.post('/api/dcim/power-panels/', { site: s2.id, name: p.name });
    expect(dup.json()).toEqual({ __all__: ['Power panel with this Site and Name already exists.'] });
    expect((await get(`/api/dcim/power-panels/?location_id=${loc.id}`)).results.map((r: Json) => r.id)).toEqual([p.id]);
  });

  it('counts its feeds, as racks do', async () => {
    const s = await makeSite(t);
    const [p, rack] = [await panel(s), await makeRack(t, s)];
    await makePowerFeed(t, { power_panel: p.id, rack: rack.id });
    await makePowerFeed(t, { power_panel: p.id });
    expect((await get(`/api/dcim/power-panels/${p.id}/`)).powerfeed_count).toBe(2);
    expect(await get(`/api/dcim/power-panels/${p.id}/?brief=1`)).toEqual({
      id: p.id,
      url: expect.any(String),
      display: p.name,
      name: p.name,
      powerfeed_count: 2,
    });
    expect((await get(`/api/dcim/racks/${rack.id}/`)).powerfeed_count).toBe(1);
  });
});

describe('power feeds', () => {
  it('renders NetBox 3.4 defaults and stores available_power as NetBox computes it', async () => {
    const f = await makePowerFeed(t);
    expect(f).toMatchObject({
      status: { value: 'active', label: 'Active' },
      type: { value: 'primary', label: 'Primary' },
      supply: { value: 'ac', label: 'AC' },
      phase: { value: 'single-phase', label: 'Single phase' },
      voltage: 120,
      amperage: 20,
      max_utilization: 80,
      cable: null,
      connected_endpoints: null,
      connected_endpoints_reachable: null,
      _occupied: false,
    });
    expect(f).not.toHaveProperty('available_power');
    const stored = async () =>
      Number(
        (
          await sql<{ p: number }>`select available_power as p from dcim_powerfeed where id = ${f.id}`.execute(
            t.db.kysely,
          )
        ).rows[0]!.p,
      );
    expect(await stored()).toBe(1920);
    await t.patch(`/api/dcim/power-feeds/${f.id}/`, { phase: 'three-phase', voltage: 400, amperage: 32 });
    expect(await stored()).toBe(Math.round(400 * 32 * 0.8 * 1.732));
  });

  it('refuses 0 V, negative AC voltage and a rack outside the panel site', async () => {
    const s = await makeSite(t);
    const p = await panel(s);
    const zero = await t.post('/api/dcim/power-feeds/', { power_panel: p.id, name: uniq('f'), voltage: 0 });
    expect(zero.json()).toEqual({ voltage: ['This value may not be 0.'] });
    const negative = await t.post('/api/dcim/power-feeds/', { power_panel: p.id, name: uniq('f'), voltage: -48 });
    expect(negative.json()).toEqual({ voltage: ['Voltage cannot be negative for AC supply'] });
    expect(
      (await t.post('/api/dcim/power-feeds/', { power_panel: p.id, name: uniq('f'), voltage: -48, supply: 'dc' }))
        .statusCode,
    ).toBe(201);
    const other = await makeSite(t);
    const rack = await makeRack(t, other);
    const bad = await t.post('/api/dcim/power-feeds/', { power_panel: p.id, name: uniq('f'), rack: rack.id });
    expect(bad.json()).toEqual({
      __all__: [`Rack ${rack.name} (${other.name}) and power panel ${p.name} (${s.name}) are in different sites`],
    });
  });

  it('filters by the site and region of its panel and by its rack', async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('reg'), slug: uniq('reg') });
    const s = await makeSite(t, { region: region.id });
    const rack = await makeRack(t, s);
    const f = await makePowerFeed(t, { power_panel: (await panel(s)).id, rack: rack.id });
    await makePowerFeed(t);
    const ids = async (q: string) => (await get(`/api/dcim/power-feeds/?${q}`)).results.map((r: Json) => r.id);
    expect(await ids(`site_id=${s.id}`)).toEqual([f.id]);
    expect(await ids(`site=${s.slug}`)).toEqual([f.id]);
    expect(await ids(`region_id=${region.id}`)).toEqual([f.id]);
    expect(await ids(`rack_id=${rack.id}`)).toEqual([f.id]);
    expect(await ids(`power_panel_id=${f.power_panel.id}&cabled=false`)).toEqual([f.id]);
  });

  it('is cabled to power ports only (NetBox 3.4 COMPATIBLE_TERMINATION_TYPES)', async () => {
    const f = await makePowerFeed(t);
    const i = await makeInterface(t, await makeDevice(t));
    const res = await t.post('/api/dcim/cables/', {
      a_terminations: end('dcim.powerfeed', f),
      b_terminations: end('dcim.interface', i),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ __all__: ['Incompatible termination types: powerfeed and interface'] });
    const back = await t.post('/api/dcim/cables/', {
      a_terminations: end('dcim.interface', i),
      b_terminations: end('dcim.powerfeed', f),
    });
    expect(back.json()).toEqual({ __all__: ['Incompatible termination types: interface and powerfeed'] });
    expect(await get(`/api/dcim/power-feeds/${f.id}/trace/`)).toEqual([]);
  });
});
