/**
 * Custom fields that must be unique (NetBox 4.1 `unique`, set through the 4.4 dialect): a value
 * another object of the model holds, or an earlier item of one bulk write gives, is a 400 naming
 * the field (under `__all__`, as the other custom field errors), nothing written; empty values never
 * clash; single and bulk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, makeSite, named, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let cf: string;
beforeAll(async () => {
  t = await makeTestApp();
  cf = uniq('asset').replaceAll('-', '_');
  const made = await t.request('POST', '/api/extras/custom-fields/', {
    headers: { accept: 'application/json; version=4.4' },
    body: { name: cf, type: 'text', object_types: ['dcim.site'], unique: true },
  });
  expect(made.statusCode, made.body).toBe(201);
});
afterAll(async () => t.close());

const message = () => ({ __all__: [`Custom field '${cf}' must have a unique value.`] });
const sitesWith = async (value: string) => (await t.get(`/api/dcim/sites/?cf_${cf}=${value}`)).json().count;

describe('a unique custom field', () => {
  it('refuses a value another site holds, on create and on update', async () => {
    const value = uniq('tag');
    const first = await makeSite(t, { custom_fields: { [cf]: value } });
    const dup = await t.post('/api/dcim/sites/', { ...named('site'), custom_fields: { [cf]: value } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual(message());
    const other = await makeSite(t);
    const patched = await t.patch(`/api/dcim/sites/${other.id}/`, { custom_fields: { [cf]: value } });
    expect(patched.statusCode).toBe(400);
    expect(await sitesWith(value)).toBe(1);
    // writing its own value again is no clash
    const same = await t.patch(`/api/dcim/sites/${first.id}/`, { custom_fields: { [cf]: value }, description: 'x' });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('refuses a bulk create whose items share a value, naming the later one, nothing written', async () => {
    const value = uniq('bulk');
    const res = await t.post('/api/dcim/sites/', [
      { ...named('site'), custom_fields: { [cf]: value } },
      { ...named('site'), custom_fields: { [cf]: uniq('other') } },
      { ...named('site'), custom_fields: { [cf]: value } },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{}, {}, message()]);
    expect(await sitesWith(value)).toBe(0);
  });

  it('lets any number of sites leave it empty, and a bulk update swap nothing into a clash', async () => {
    const sites: Json[] = [];
    for (let i = 0; i < 3; i++) sites.push(await makeSite(t, { custom_fields: { [cf]: null } }));
    const a = uniq('a');
    const res = await t.patch(
      '/api/dcim/sites/',
      sites.map((s) => ({ id: s.id, custom_fields: { [cf]: a } })),
    );
    expect(res.statusCode).toBe(400);
    expect(await sitesWith(a)).toBe(0);
  });
});
