/** Factories for dcim API tests: every required field filled with unique values, through the API. */
import { expect } from 'vitest';
import { type TestApp, uniq } from '../../helpers/app.js';

export type Json = Record<string, any>;

export async function make(t: TestApp, path: string, data: Json): Promise<Json> {
  const res = await t.post(path, data);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(201);
  return res.json();
}

const named = (prefix: string) => {
  const n = uniq(prefix);
  return { name: n, slug: n };
};

export const makeSite = (t: TestApp, extra: Json = {}) => make(t, '/api/dcim/sites/', { ...named('site'), ...extra });
export const makeRole = (t: TestApp) => make(t, '/api/dcim/device-roles/', named('role'));
export const makeManufacturer = (t: TestApp) => make(t, '/api/dcim/manufacturers/', named('mfr'));

export async function makeDeviceType(t: TestApp, extra: Json = {}): Promise<Json> {
  const model = uniq('model');
  const manufacturer = extra.manufacturer ?? (await makeManufacturer(t)).id;
  return make(t, '/api/dcim/device-types/', { model, slug: model, ...extra, manufacturer });
}

export async function makeRack(t: TestApp, site: Json, extra: Json = {}): Promise<Json> {
  return make(t, '/api/dcim/racks/', { name: uniq('rack'), site: site.id, ...extra });
}

/** a device in `site` (a new one when absent), with a new type and role unless given */
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

export const term = (i: Json) => [{ object_type: 'dcim.interface', object_id: i.id }];

export async function makeCable(t: TestApp, a: Json, b: Json, extra: Json = {}): Promise<Json> {
  return make(t, '/api/dcim/cables/', { a_terminations: term(a), b_terminations: term(b), ...extra });
}

export const ids = (body: Json) => (body.results as Json[]).map((r) => r.id);
