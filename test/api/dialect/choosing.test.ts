/**
 * How a request's API dialect is chosen (http/dialect.ts): the Accept header's version, else the
 * token's api_dialect, else API_DIALECT; announced in API-Version, seen in /api/status/, and the
 * representations follow it (a rack's `type` is 4.4's `form_factor`, 4.4's objects carry display_url).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRack, makeSite } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let rack: Record<string, unknown>;
const V44 = { accept: 'application/json; version=4.4' };

beforeAll(async () => {
  t = await makeTestApp();
  const site = await makeSite(t);
  rack = await makeRack(t, site, { type: '4-post-cabinet', description: 'row 1' });
});
afterAll(async () => t.close());

describe('choosing a dialect', () => {
  it('answers 3.4 by default, 4.4 when the Accept header asks, 406 for a version not spoken', async () => {
    const plain = await t.get('/api/status/');
    expect(plain.headers['api-version']).toBe('3.4');
    expect(plain.json()['netbox-version']).toBe('3.4.0');
    expect(plain.json()).toHaveProperty('installed-apps');
    const v44 = await t.request('GET', '/api/status/', { headers: V44 });
    expect(v44.headers['api-version']).toBe('4.4');
    expect(v44.json()).toMatchObject({ 'netbox-version': '4.4.10', 'netbox-full-version': '4.4.10' });
    expect(v44.json()).toHaveProperty('installed_apps');
    expect(typeof v44.json().hostname).toBe('string');
    const v35 = await t.request('GET', '/api/status/', { headers: { accept: 'application/json; version=3.5' } });
    expect(v35.statusCode).toBe(406);
    expect(v35.json()).toEqual({ detail: 'Invalid version in "Accept" header.' });
  });

  it('shows a rack as each dialect does', async () => {
    const old = (await t.get(`/api/dcim/racks/${rack.id}/`)).json();
    expect(old.type).toEqual({ value: '4-post-cabinet', label: '4-post cabinet' });
    expect(old).not.toHaveProperty('form_factor');
    expect(old).not.toHaveProperty('display_url');
    const res = await t.request('GET', `/api/dcim/racks/${rack.id}/`, { headers: V44 });
    const now = res.json();
    expect(now.form_factor).toEqual(old.type);
    expect(now).not.toHaveProperty('type');
    expect(now.display_url).toBe(String(rack.url).replace('/api/', '/'));
    expect(Object.keys(now).slice(0, 4)).toEqual(['id', 'url', 'display_url', 'display']);
    const brief = (await t.request('GET', `/api/dcim/racks/?brief=1&id=${rack.id}`, { headers: V44 })).json();
    expect(brief.results[0]).toEqual({
      id: rack.id,
      url: rack.url,
      display: rack.display,
      name: rack.name,
      description: 'row 1',
      device_count: 0,
    });
    // the nested site of a 4.4 rack is 4.4's brief site without counts
    expect(Object.keys(now.site)).toEqual(['id', 'url', 'display', 'name', 'slug', 'description']);
  });

  it('takes either name when written and filtered, in both dialects', async () => {
    const site = await makeSite(t);
    const made = await t.post('/api/dcim/racks/', { name: 'r44', site: site.id, form_factor: 'wall-frame' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().type.value).toBe('wall-frame');
    const both = await t.request('GET', `/api/dcim/racks/?form_factor=wall-frame&site_id=${site.id}`, { headers: V44 });
    expect(both.json().results.map((r: { name: string }) => r.name)).toEqual(['r44']);
    const old = await t.get(`/api/dcim/racks/?type=wall-frame&site_id=${site.id}`);
    expect(old.json().count).toBe(1);
    const none = await t.get(`/api/dcim/racks/?form_factor=4-post-cabinet&site_id=${site.id}`);
    expect(none.json().count).toBe(0);
    // an error names the field as the client's dialect does
    const bad = { name: 'bad', site: site.id, form_factor: 'round' };
    const bad44 = await t.request('POST', '/api/dcim/racks/', { body: bad, headers: V44 });
    expect(bad44.statusCode).toBe(400);
    expect(Object.keys(bad44.json())).toEqual(['form_factor']);
    const bad34 = await t.post('/api/dcim/racks/', bad);
    expect(Object.keys(bad34.json())).toEqual(['type']);
  });

  it('shows only the fields asked for (?fields=), or all but some (?omit=), in 4.4', async () => {
    const only = await t.request('GET', `/api/dcim/racks/${rack.id}/?fields=id,name,form_factor`, { headers: V44 });
    expect(only.json()).toEqual({ id: rack.id, name: rack.name, form_factor: expect.any(Object) });
    const omit = await t.request('GET', `/api/dcim/racks/${rack.id}/?omit=site,tags,custom_fields`, { headers: V44 });
    expect(omit.json()).not.toHaveProperty('site');
    expect(omit.json()).not.toHaveProperty('tags');
    expect(omit.json()).toHaveProperty('name', rack.name);
  });

  it('follows the token: its api_dialect is chosen once and the request may still ask', async () => {
    const made = await t.post('/api/users/tokens/', { api_dialect: '4.4' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().api_dialect).toEqual({ value: '4.4', label: 'NetBox 4.4' });
    const key = made.json().key as string;
    const res = await t.get(`/api/dcim/racks/${rack.id}/`, key);
    expect(res.headers['api-version']).toBe('4.4');
    expect(res.json()).toHaveProperty('form_factor');
    const asked = await t.request('GET', `/api/dcim/racks/${rack.id}/`, {
      token: key,
      headers: { accept: 'application/json; version=3.4' },
    });
    expect(asked.headers['api-version']).toBe('3.4');
    expect(asked.json()).toHaveProperty('type');
    const change = await t.patch(`/api/users/tokens/${made.json().id}/`, { api_dialect: '3.4' });
    expect(change.statusCode).toBe(400);
    expect(change.json()).toEqual({
      api_dialect: ['The API dialect of a token cannot be changed once it is created.'],
    });
    const same = await t.patch(`/api/users/tokens/${made.json().id}/`, { api_dialect: '4.4', description: 'tf' });
    expect(same.statusCode).toBe(200);
  });
});

describe('an address NAT-ed to two others', () => {
  it('shows one nat_outside (or null) in 3.4, the list of them in 4.4', async () => {
    const inside = (await t.post('/api/ipam/ip-addresses/', { address: '10.9.0.1/24' })).json();
    const a = (await t.post('/api/ipam/ip-addresses/', { address: '192.0.2.1/24', nat_inside: inside.id })).json();
    const b = (await t.post('/api/ipam/ip-addresses/', { address: '192.0.2.2/24', nat_inside: inside.id })).json();
    expect((await t.get(`/api/ipam/ip-addresses/${inside.id}/`)).json().nat_outside.id).toBe(a.id);
    const v44 = (await t.request('GET', `/api/ipam/ip-addresses/${inside.id}/`, { headers: V44 })).json();
    expect(v44.nat_outside.map((n: { id: number }) => n.id)).toEqual([a.id, b.id]);
    const alone = (await t.request('GET', `/api/ipam/ip-addresses/${a.id}/`, { headers: V44 })).json();
    expect(alone.nat_outside).toEqual([]);
  });
});
