/**
 * NetBox 4.1's rack types and 4.3's module type profiles: served in the 4.4 dialect only, with
 * 4.4's fields, brief forms, filters and validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Api44, ids, makeManufacturer, makeRackType, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  t = await makeTestApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

describe('/api/dcim/rack-types/', () => {
  it('creates, reads, updates and deletes a rack type in 4.4', async () => {
    const mfr = await makeManufacturer(t);
    const made = await v44.post('/api/dcim/rack-types/', {
      manufacturer: mfr.id,
      model: 'R42',
      slug: uniq('r42'),
      form_factor: '4-post-cabinet',
      outer_width: 600,
      outer_unit: 'mm',
    });
    expect(made.statusCode, made.body).toBe(201);
    const rt = made.json();
    expect(rt).toMatchObject({
      display: 'R42',
      form_factor: { value: '4-post-cabinet', label: '4-post cabinet' },
      width: { value: 19, label: '19 inches' },
      u_height: 42,
      starting_unit: 1,
      outer_unit: { value: 'mm', label: 'Millimeters' },
      weight_unit: null,
    });
    expect(rt.display_url).toBe(`http://localhost:80/dcim/rack-types/${rt.id}/`);
    expect(Object.keys(rt.manufacturer)).toEqual(['id', 'url', 'display', 'name', 'slug', 'description']);
    const patched = await v44.patch(`/api/dcim/rack-types/${rt.id}/`, { outer_width: null, u_height: 48 });
    expect(patched.statusCode, patched.body).toBe(200);
    // NetBox 4.4 RackType.save(): no outer dimension left, so no unit either
    expect(patched.json()).toMatchObject({ u_height: 48, outer_width: null, outer_unit: null });
    const brief = await v44.get(`/api/dcim/rack-types/?brief=1&id=${rt.id}`);
    expect(Object.keys(brief.json().results[0])).toEqual([
      'id',
      'url',
      'display',
      'manufacturer',
      'model',
      'slug',
      'description',
    ]);
    expect((await v44.del(`/api/dcim/rack-types/${rt.id}/`)).statusCode).toBe(204);
    expect((await v44.get(`/api/dcim/rack-types/${rt.id}/`)).statusCode).toBe(404);
  });

  it('is not there in 3.4, nor in its app root', async () => {
    const rt = await makeRackType(t);
    expect((await t.get('/api/dcim/rack-types/')).statusCode).toBe(404);
    expect((await t.get(`/api/dcim/rack-types/${rt.id}/`)).statusCode).toBe(404);
    expect(Object.keys((await t.get('/api/dcim/')).json())).not.toContain('rack-types');
    expect((await v44.get('/api/dcim/')).json()['rack-types']).toBe('http://localhost:80/api/dcim/rack-types/');
  });

  it('filters by manufacturer, form factor, width and q', async () => {
    const mfr = await makeManufacturer(t);
    const a = await makeRackType(t, { manufacturer: mfr.id, form_factor: 'wall-frame', width: 10 });
    const b = await makeRackType(t, { manufacturer: mfr.id, description: 'tall one' });
    const list = async (q: string) => ids((await v44.get(`/api/dcim/rack-types/?${q}`)).json());
    expect(await list(`manufacturer_id=${mfr.id}&ordering=id`)).toEqual([a.id, b.id]);
    expect(await list(`manufacturer=${mfr.slug}&form_factor=wall-frame`)).toEqual([a.id]);
    expect(await list(`manufacturer_id=${mfr.id}&width=19`)).toEqual([b.id]);
    expect(await list(`manufacturer_id=${mfr.id}&q=tall`)).toEqual([b.id]);
  });

  it('refuses a bulk create with a bad item, naming NetBox rules, and writes none', async () => {
    const mfr = await makeManufacturer(t);
    const before = (await v44.get(`/api/dcim/rack-types/?manufacturer_id=${mfr.id}`)).json().count;
    const res = await v44.post('/api/dcim/rack-types/', [
      { manufacturer: mfr.id, model: uniq('ok'), slug: uniq('ok'), form_factor: 'wall-frame' },
      { manufacturer: mfr.id, model: uniq('bad'), slug: uniq('bad'), form_factor: 'wall-frame', outer_depth: 5 },
      { manufacturer: mfr.id, model: uniq('bad'), slug: uniq('bad') },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([
      {},
      { __all__: ['Must specify a unit when setting an outer dimension'] },
      { form_factor: ['This field is required.'] },
    ]);
    expect((await v44.get(`/api/dcim/rack-types/?manufacturer_id=${mfr.id}`)).json().count).toBe(before);
  });

  it('keeps model and slug unique per manufacturer', async () => {
    const rt = await makeRackType(t);
    const res = await v44.post('/api/dcim/rack-types/', {
      manufacturer: rt.manufacturer.id,
      model: rt.model,
      slug: uniq('other'),
      form_factor: 'wall-frame',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ __all__: ['Rack type with this Manufacturer and Model already exists.'] });
  });
});

describe('/api/dcim/module-type-profiles/', () => {
  it('creates, reads, updates and deletes a profile in 4.4, and is 404 in 3.4', async () => {
    const schema = { type: 'object', properties: { speed: { type: 'integer' } }, required: ['speed'] };
    const made = await v44.post('/api/dcim/module-type-profiles/', { name: uniq('prof'), schema });
    expect(made.statusCode, made.body).toBe(201);
    const p = made.json();
    expect(p).toMatchObject({ schema, description: '', comments: '' });
    expect((await t.get(`/api/dcim/module-type-profiles/${p.id}/`)).statusCode).toBe(404);
    const brief = (await v44.get(`/api/dcim/module-type-profiles/?brief=1&id=${p.id}`)).json().results[0];
    expect(brief).toEqual({ id: p.id, url: p.url, display: p.name, name: p.name, description: '' });
    const patched = await v44.patch(`/api/dcim/module-type-profiles/${p.id}/`, { description: 'optics' });
    expect(patched.json().description).toBe('optics');
    expect(ids((await v44.get('/api/dcim/module-type-profiles/?q=optics')).json())).toEqual([p.id]);
    expect((await v44.del(`/api/dcim/module-type-profiles/${p.id}/`)).statusCode).toBe(204);
  });

  it('refuses a schema that is not one, and a name taken', async () => {
    const name = uniq('prof');
    const bad = await v44.post('/api/dcim/module-type-profiles/', { name, schema: { type: 'thing' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().schema[0]).toMatch(/^Invalid JSON schema definition: /);
    expect((await v44.get(`/api/dcim/module-type-profiles/?name=${name}`)).json().count).toBe(0);
    await v44.post('/api/dcim/module-type-profiles/', { name });
    const dup = await v44.post('/api/dcim/module-type-profiles/', { name });
    expect(dup.json()).toEqual({ name: ['module type profile with this name already exists.'] });
  });
});
