/**
 * The contact filters (contact, contact_role, contact_group with its subgroups, and __n) on the
 * organisational models NetBox 3.7 gives them to (netbox-filters.md): sites, regions, site groups,
 * locations, racks, devices, manufacturers and tenants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeDevice,
  makeManufacturer,
  makeRack,
  makeSite,
  named,
  makeContactGroup,
  makeContactRole,
  makeRegion,
  makeSiteGroup,
  makeTenant,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const MODELS: Array<[string, string, () => Promise<Json>]> = [
  ['dcim.site', '/api/dcim/sites/', () => makeSite(t)],
  ['dcim.region', '/api/dcim/regions/', () => makeRegion(t)],
  ['dcim.sitegroup', '/api/dcim/site-groups/', () => makeSiteGroup(t)],
  [
    'dcim.location',
    '/api/dcim/locations/',
    async () => make(t, '/api/dcim/locations/', { ...named('loc'), site: (await makeSite(t)).id }),
  ],
  ['dcim.rack', '/api/dcim/racks/', async () => makeRack(t, await makeSite(t))],
  ['dcim.device', '/api/dcim/devices/', () => makeDevice(t)],
  ['dcim.manufacturer', '/api/dcim/manufacturers/', () => makeManufacturer(t)],
  ['tenancy.tenant', '/api/tenancy/tenants/', () => makeTenant(t)],
];

describe.each(MODELS)('contact filters on %s', (contentType, path, create) => {
  it('filters by contact, contact_role, contact_group (with subgroups) and their negations', async () => {
    const top = await makeContactGroup(t);
    const sub = await makeContactGroup(t, { parent: top.id });
    const contact = await make(t, '/api/tenancy/contacts/', { name: uniq('contact'), group: sub.id });
    const role = await makeContactRole(t);
    const [a, b] = [await create(), await create()];
    await make(t, '/api/tenancy/contact-assignments/', {
      content_type: contentType,
      object_id: a.id,
      contact: contact.id,
      role: role.id,
    });
    const list = async (q: string) => {
      const res = await t.get(`${path}?id=${a.id}&id=${b.id}&ordering=id&${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return ids(res.json());
    };
    expect(await list(`contact=${contact.id}`)).toEqual([a.id]);
    expect(await list(`contact_role=${role.id}`)).toEqual([a.id]);
    expect(await list(`contact_group=${top.id}`)).toEqual([a.id]);
    expect(await list(`contact__n=${contact.id}`)).toEqual([b.id]);
    const bad = await t.get(`${path}?contact_group__n=987654321`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['contact_group__n']);
  });
});
