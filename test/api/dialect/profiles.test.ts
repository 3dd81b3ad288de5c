/**
 * Profiles on existing models: a module type's `profile` and `attributes` (NetBox 4.3), a config
 * context's `profile` (NetBox 4.4), both shown in the 4.4 dialect. What they carry must satisfy the
 * profile's JSON schema; filters `profile` / `profile_id`; a profile in use cannot be deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Json, make44, makeManufacturer, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const SCHEMA = {
  properties: { speed: { type: 'integer', minimum: 1 }, form: { type: 'string', enum: ['sfp', 'qsfp'] } },
  required: ['speed'],
};

describe('module type profile and attributes', () => {
  const moduleType = async (extra: Json) =>
    api44(t).post('/api/dcim/module-types/', {
      manufacturer: (await makeManufacturer(t)).id,
      model: uniq('mt'),
      ...extra,
    });

  it('shows the profile and attributes in 4.4, checks them against the schema and merges writes', async () => {
    const profile = await make44(t, '/api/dcim/module-type-profiles/', { name: uniq('optic'), schema: SCHEMA });
    const made = await moduleType({ profile: profile.id, attributes: { speed: 10, form: 'sfp' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().profile).toMatchObject({ id: profile.id, name: profile.name });
    expect(made.json().attributes).toEqual({ speed: 10, form: 'sfp' });
    const brief = (await api44(t).get(`/api/dcim/module-types/${made.json().id}/?brief=1`)).json();
    expect(Object.keys(brief)).toEqual(['id', 'url', 'display', 'profile', 'manufacturer', 'model', 'description']);
    const old = (await t.get(`/api/dcim/module-types/${made.json().id}/`)).json();
    expect(old).not.toHaveProperty('profile');
    expect(old).not.toHaveProperty('attributes');
    // a written object updates the stored attributes key by key (NetBox's AttributesField)
    const merged = await api44(t).patch(`/api/dcim/module-types/${made.json().id}/`, { attributes: { speed: 40 } });
    expect(merged.json().attributes).toEqual({ speed: 40, form: 'sfp' });
    const bad = await moduleType({ profile: profile.id, attributes: { form: 'sfp' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ __all__: ["Invalid schema: 'speed' is a required property"] });
    const wrong = await moduleType({ profile: profile.id, attributes: { speed: 10, form: 'cfp' } });
    expect(wrong.json()).toEqual({ __all__: [`Invalid schema: 'cfp' is not one of ["sfp","qsfp"]`] });
  });

  it('keeps no attributes without a profile, filters by profile and protects a profile in use', async () => {
    const plain = await moduleType({ attributes: { speed: 10 } });
    expect(plain.json().attributes).toBeNull();
    const profile = await make44(t, '/api/dcim/module-type-profiles/', { name: uniq('optic'), schema: SCHEMA });
    const typed = (await moduleType({ profile: profile.id, attributes: { speed: 1 } })).json();
    const ids = async (q: string) =>
      ((await api44(t).get(`/api/dcim/module-types/?${q}`)).json().results as Json[]).map((r) => r.id);
    expect(await ids(`profile_id=${profile.id}`)).toEqual([typed.id]);
    expect(await ids(`profile=${encodeURIComponent(profile.name)}`)).toEqual([typed.id]);
    expect((await api44(t).del(`/api/dcim/module-type-profiles/${profile.id}/`)).statusCode).toBe(409);
  });
});

describe('config context profile', () => {
  it('checks the data against the profile schema, shows the profile in 4.4 and filters by it', async () => {
    const profile = await make44(t, '/api/extras/config-context-profiles/', { name: uniq('ccp'), schema: SCHEMA });
    const bad = await api44(t).post('/api/extras/config-contexts/', {
      name: uniq('cc'),
      profile: profile.id,
      data: { speed: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      __all__: ['Data does not conform to profile schema: 0 is less than the minimum of 1'],
    });
    const cc = await make44(t, '/api/extras/config-contexts/', {
      name: uniq('cc'),
      profile: profile.id,
      data: { speed: 1 },
    });
    expect(cc.profile).toMatchObject({ id: profile.id, name: profile.name });
    expect((await t.get(`/api/extras/config-contexts/${cc.id}/`)).json()).not.toHaveProperty('profile');
    const listed = (await api44(t).get(`/api/extras/config-contexts/?profile_id=${profile.id}`)).json();
    expect((listed.results as Json[]).map((r) => r.id)).toEqual([cc.id]);
    // a 3.4 write that leaves the profile keeps checking against it
    const old = await t.patch(`/api/extras/config-contexts/${cc.id}/`, { data: {} });
    expect(old.statusCode).toBe(400);
  });
});
