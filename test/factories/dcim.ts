/**
 * Builders of the dcim app. Each fills every required field with unique values and makes what it
 * needs (a site, a type, a role) unless the overrides name one.
 */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeRegion = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/dcim/regions/', { ...named('region'), ...extra });
export const makeSiteGroup = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/dcim/site-groups/', { ...named('sgroup'), ...extra });
export const makeSite = (t: TestApp, extra: Json = {}) => make(t, '/api/dcim/sites/', { ...named('site'), ...extra });
export const makeRole = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/dcim/device-roles/', { ...named('role'), ...extra });
export const makeManufacturer = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/dcim/manufacturers/', { ...named('mfr'), ...extra });
export const makePlatform = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/dcim/platforms/', { ...named('platform'), ...extra });

/** a location in `extra.site` (a new site unless given) */
export async function makeLocation(t: TestApp, extra: Json = {}): Promise<Json> {
  const site = extra.site ?? (await makeSite(t)).id;
  return make(t, '/api/dcim/locations/', { ...named('loc'), ...extra, site });
}

export async function makeDeviceType(t: TestApp, extra: Json = {}): Promise<Json> {
  const model = uniq('model');
  const manufacturer = extra.manufacturer ?? (await makeManufacturer(t)).id;
  return make(t, '/api/dcim/device-types/', { model, slug: model, ...extra, manufacturer });
}

export async function makeModuleType(t: TestApp, extra: Json = {}): Promise<Json> {
  const manufacturer = extra.manufacturer ?? (await makeManufacturer(t)).id;
  return make(t, '/api/dcim/module-types/', { model: uniq('modtype'), ...extra, manufacturer });
}

export async function makeRack(t: TestApp, site: Json, extra: Json = {}): Promise<Json> {
  return make(t, '/api/dcim/racks/', { name: uniq('rack'), site: site.id, ...extra });
}

/**
 * a device in `extra.site` (a new one when absent), with a new type and role unless given; the
 * role goes under whichever key the test used (`role`, or NetBox 3.4's `device_role`)
 */
export async function makeDevice(t: TestApp, extra: Json = {}): Promise<Json> {
  const site = extra.site ?? (await makeSite(t)).id;
  const deviceType = extra.device_type ?? (await makeDeviceType(t)).id;
  const role = extra.device_role ?? extra.role ?? (await makeRole(t)).id;
  const roleKey = 'role' in extra ? 'role' : 'device_role';
  const { role: _r, device_role: _d, ...rest } = extra;
  return make(t, '/api/dcim/devices/', { name: uniq('dev'), ...rest, site, device_type: deviceType, [roleKey]: role });
}

export async function makeInterface(t: TestApp, device: Json, extra: Json = {}): Promise<Json> {
  return make(t, '/api/dcim/interfaces/', { device: device.id, name: uniq('eth'), type: '1000base-t', ...extra });
}

/** the terminations of one cable end: interfaces */
export const term = (i: Json) => [{ object_type: 'dcim.interface', object_id: i.id }];

/** one end of a cable: objects of one type */
export const end = (type: string, ...objs: Json[]) => objs.map((o) => ({ object_type: type, object_id: o.id }));

/** a cable between two interfaces */
export async function makeCable(t: TestApp, a: Json, b: Json, extra: Json = {}): Promise<Json> {
  return make(t, '/api/dcim/cables/', { a_terminations: term(a), b_terminations: term(b), ...extra });
}

/** a cable between any two ends (see `end`) */
export const cableBetween = (
  t: TestApp,
  a: Array<{ object_type: string; object_id: number }>,
  b: Array<{ object_type: string; object_id: number }>,
  extra: Json = {},
) => make(t, '/api/dcim/cables/', { a_terminations: a, b_terminations: b, ...extra });

/** a power panel in `extra.site` (a new site unless given) */
export async function makePowerPanel(t: TestApp, extra: Json = {}): Promise<Json> {
  const site = extra.site ?? (await makeSite(t)).id;
  return make(t, '/api/dcim/power-panels/', { name: uniq('panel'), ...extra, site });
}

/** a power feed on `extra.power_panel` (a new panel unless given) */
export async function makePowerFeed(t: TestApp, extra: Json = {}): Promise<Json> {
  const panel = extra.power_panel ?? (await makePowerPanel(t)).id;
  return make(t, '/api/dcim/power-feeds/', { name: uniq('feed'), ...extra, power_panel: panel });
}
