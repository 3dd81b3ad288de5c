/**
 * Uniqueness and choice errors in Django's and DRF's words: a unique field names the model's
 * verbose name and the field label capitalised as capfirst does; a unique constraint over fields
 * is Django's unique_error_message (model capfirst, labels joined with "," and "and"), unless the
 * constraint words it itself; an unknown choice is `"x" is not a valid choice.`
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  make,
  makeDevice,
  makeRack,
  makeSite,
  named,
  makeRegion,
  makeTenant,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const errorOf = async (path: string, body: unknown, method: 'post' | 'patch' = 'post') => {
  const res = await t[method](path, body);
  expect(res.statusCode, res.body).toBe(400);
  return res.json() as Json;
};

describe('single-field uniqueness', () => {
  it('names the model and the field label, capitalised (rack with this Asset tag already exists.)', async () => {
    const site = await makeSite(t);
    const tag = uniq('tag');
    await makeRack(t, site, { asset_tag: tag });
    expect(await errorOf('/api/dcim/racks/', { name: uniq('r'), site: site.id, asset_tag: tag })).toEqual({
      asset_tag: ['rack with this Asset tag already exists.'],
    });
    await makeDevice(t, { site: site.id, asset_tag: `${tag}-d` });
    const dup = await errorOf('/api/dcim/devices/', {
      name: uniq('d'),
      site: site.id,
      asset_tag: `${tag}-d`,
      device_type: 1,
      device_role: 1,
    });
    expect(dup.asset_tag).toEqual(['device with this Asset tag already exists.']);
  });

  it('capitalises only the first letter of the label and keeps the model verbose name as declared', async () => {
    const site = await makeSite(t);
    expect(await errorOf('/api/dcim/sites/', { name: site.name, slug: site.slug })).toEqual({
      name: ['site with this Name already exists.'],
      slug: ['site with this Slug already exists.'],
    });
    await make(t, '/api/ipam/vrfs/', { name: uniq('vrf'), rd: '65123:7' });
    expect(await errorOf('/api/ipam/vrfs/', { name: uniq('vrf'), rd: '65123:7' })).toEqual({
      rd: ['VRF with this Route distinguisher already exists.'],
    });
  });

  it("an update that takes another object's value is refused the same way", async () => {
    const a = await makeTenant(t);
    const b = await makeTenant(t);
    expect(await errorOf(`/api/tenancy/tenants/${b.id}/`, { name: a.name }, 'patch')).toEqual({
      name: ['tenant with this Name already exists.'],
    });
  });

  it("keeps Django's own wording for a user name", async () => {
    const username = uniq('user');
    await make(t, '/api/users/users/', { username, password: 'Pass-word-1' });
    expect(await errorOf('/api/users/users/', { username, password: 'Pass-word-1' })).toEqual({
      username: ['A user with that username already exists.'],
    });
  });
});

describe('unique constraints over several fields', () => {
  it('joins the capitalised labels with "," and "and"', async () => {
    const site = await makeSite(t);
    const parent = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id });
    const child = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id, parent: parent.id });
    expect(
      await errorOf('/api/dcim/locations/', { name: child.name, slug: uniq('s'), site: site.id, parent: parent.id }),
    ).toEqual({
      __all__: ['Location with this Site, Parent and Name already exists.'],
    });
    const region = await makeRegion(t);
    const sub = await makeRegion(t, { parent: region.id });
    expect(await errorOf('/api/dcim/regions/', { name: sub.name, slug: uniq('s'), parent: region.id })).toEqual({
      __all__: ['Region with this Parent and Name already exists.'],
    });
    const rack = await makeRack(t, site, { location: parent.id, facility_id: uniq('f') });
    expect(
      await errorOf('/api/dcim/racks/', {
        name: uniq('r'),
        site: site.id,
        location: parent.id,
        facility_id: rack.facility_id,
      }),
    ).toEqual({
      __all__: ['Rack with this Location and Facility ID already exists.'],
    });
  });

  it("uses the constraint's own message where NetBox gives one, and names an expression constraint", async () => {
    const site = await makeSite(t);
    const top = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id });
    expect(await errorOf('/api/dcim/locations/', { name: top.name, slug: uniq('s'), site: site.id })).toEqual({
      __all__: ['A location with this name already exists within the specified site.'],
    });
    const tenant = await makeTenant(t);
    const dev = await makeDevice(t, { site: site.id, tenant: tenant.id });
    const dup = await errorOf('/api/dcim/devices/', {
      name: dev.name.toUpperCase(),
      site: site.id,
      tenant: tenant.id,
      device_type: dev.device_type.id,
      device_role: dev.device_role.id,
    });
    expect(dup).toEqual({ __all__: ['Constraint “dcim_device_unique_name_site_tenant” is violated.'] });
  });
});

describe('choice errors', () => {
  it('quote the value, on single and bulk writes', async () => {
    expect(await errorOf('/api/dcim/sites/', { ...named('site'), status: 'bogus' })).toEqual({
      status: ['"bogus" is not a valid choice.'],
    });
    const res = await t.post('/api/ipam/prefixes/', [
      { prefix: '10.66.0.0/24' },
      { prefix: '10.66.1.0/24', status: 'nope' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{}, { status: ['"nope" is not a valid choice.'] }]);
    expect((await t.get('/api/ipam/prefixes/?prefix=10.66.0.0/24')).json().count).toBe(0);
  });
});
