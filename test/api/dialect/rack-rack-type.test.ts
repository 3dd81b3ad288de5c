/**
 * A rack's rack type (NetBox 4.1): a 4.4 field, written in either dialect; a rack of a type takes
 * the type's physical attributes whenever it is written; filters rack_type, rack_type_id and the
 * type's manufacturer; a type in use cannot be deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Json, makeRack, makeRackType, makeSite, make44, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const typeAttrs = { form_factor: 'wall-cabinet', width: 10, u_height: 12, outer_width: 500, outer_unit: 'mm' };

describe('rack rack_type', () => {
  it('a rack of a type shows it in 4.4 and copies its attributes', async () => {
    const type = await makeRackType(t, typeAttrs);
    const site = await makeSite(t);
    const rack = await make44(t, '/api/dcim/racks/', {
      name: uniq('r'),
      site: site.id,
      rack_type: type.id,
      u_height: 40,
    });
    expect(rack.rack_type).toMatchObject({ id: type.id, model: type.model, slug: type.slug });
    expect(rack.rack_type.manufacturer.id).toBe(type.manufacturer.id);
    expect(rack).toMatchObject({ u_height: 12, outer_width: 500 });
    expect(rack.form_factor.value).toBe('wall-cabinet');
    expect(rack.width.value).toBe(10);
    const old = (await t.get(`/api/dcim/racks/${rack.id}/`)).json();
    expect(old).not.toHaveProperty('rack_type');
    expect(old.type.value).toBe('wall-cabinet');
    // every later write keeps the type's attributes (NetBox copies them on each save)
    const patched = await t.patch(`/api/dcim/racks/${rack.id}/`, { u_height: 30, description: 'x' });
    expect(patched.json().u_height).toBe(12);
    // without a type, the rack's own attributes are its again
    const freed = await api44(t).patch(`/api/dcim/racks/${rack.id}/`, { rack_type: null, u_height: 30 });
    expect(freed.json()).toMatchObject({ rack_type: null, u_height: 30 });
  });

  it('filters by rack_type, rack_type_id and manufacturer', async () => {
    const type = await makeRackType(t, typeAttrs);
    const site = await makeSite(t);
    const typed = await make44(t, '/api/dcim/racks/', { name: uniq('r'), site: site.id, rack_type: type.id });
    await makeRack(t, site);
    const ids = async (q: string) =>
      ((await api44(t).get(`/api/dcim/racks/?site_id=${site.id}&${q}`)).json().results as Json[]).map((r) => r.id);
    expect(await ids(`rack_type_id=${type.id}`)).toEqual([typed.id]);
    expect(await ids(`rack_type=${type.slug}`)).toEqual([typed.id]);
    expect(await ids(`manufacturer_id=${type.manufacturer.id}`)).toEqual([typed.id]);
    expect((await api44(t).get('/api/dcim/racks/?rack_type_id=987654321')).statusCode).toBe(400);
  });

  it('a rack type in use is protected from deletion', async () => {
    const type = await makeRackType(t, typeAttrs);
    await make44(t, '/api/dcim/racks/', { name: uniq('r'), site: (await makeSite(t)).id, rack_type: type.id });
    expect((await api44(t).del(`/api/dcim/rack-types/${type.id}/`)).statusCode).toBe(409);
  });
});
