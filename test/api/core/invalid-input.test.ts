/**
 * Invalid input refused at the generic mechanism, per field and relation kind (spec: Writing related
 * objects; reference 6.1): a 400 naming the field or parameter, NetBox's body shape, nothing written.
 * The hostile sweep (bench/hostile-fields.ts) sends the same classes to every endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeDevice, makeInterface, makeSite, uniq } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const count = async (url: string) => (await t.get(`${url}${url.includes('?') ? '&' : '?'}limit=1`)).json().count;
const named = (p: string) => {
  const n = uniq(p);
  return { name: n, slug: n };
};

describe('tags and lists of related objects', () => {
  it('refuses a null (or a list, or a boolean) member of tags on create and PATCH, on several models', async () => {
    const site = await makeSite(t, { description: 'kept' });
    const before = await count('/api/extras/tags/');
    for (const member of [null, [1], true]) {
      const created = await t.post('/api/dcim/sites/', { ...named('site'), tags: [member] });
      expect(created.statusCode, created.body).toBe(400);
      expect(Object.keys(created.json())).toEqual(['tags']);
      const patched = await t.patch(`/api/dcim/sites/${site.id}/`, { tags: [member], description: 'changed' });
      expect(patched.statusCode).toBe(400);
      expect(patched.json().tags[0]).toMatch(/^Related objects must be referenced by numeric ID or by dictionary/);
    }
    const tenant = await t.post('/api/tenancy/tenants/', { ...named('tenant'), tags: [null] });
    expect(tenant.json()).toEqual({
      tags: [
        'Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: None',
      ],
    });
    const prefix = await t.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/24', tags: [null] });
    expect(prefix.statusCode).toBe(400);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().description).toBe('kept');
    expect(await count('/api/ipam/prefixes/?prefix=10.77.0.0/24')).toBe(0);
    expect(await count('/api/extras/tags/')).toBe(before);
  });

  it('refuses members of a list of ids that name nothing, with DRF messages', async () => {
    const site = await makeSite(t);
    const cases: Array<[unknown, string]> = [
      [null, 'Invalid pk "None" - object does not exist.'],
      [true, 'Incorrect type. Expected pk value, received bool.'],
      [[1], 'Incorrect type. Expected pk value, received list.'],
      ['abc', 'Invalid pk "abc" - object does not exist.'],
      [0, 'Invalid pk "0" - object does not exist.'],
    ];
    for (const [member, message] of cases) {
      const res = await t.patch(`/api/dcim/sites/${site.id}/`, { asns: [member] });
      expect(res.statusCode, JSON.stringify(member)).toBe(400);
      expect(res.json()).toEqual({ asns: [message] });
    }
  });
});

describe('related objects', () => {
  it('refuses 0, {}, a word, an unknown attribute, a list id and deep nesting on an fk, naming it', async () => {
    const vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf') })).json();
    const site = await makeSite(t);
    const bad = [0, {}, 'abc', { no_such_attribute: 1 }, { id: [vrf.id] }, { id: { id: { id: vrf.id } } }, true];
    for (const v of bad) {
      const created = await t.post('/api/ipam/prefixes/', { prefix: '10.78.0.0/24', vrf: v });
      expect(created.statusCode, JSON.stringify(v)).toBe(400);
      expect(Object.keys(created.json())).toEqual(['vrf']);
      const patched = await t.patch(`/api/dcim/sites/${site.id}/`, { tenant: v });
      expect(patched.statusCode, JSON.stringify(v)).toBe(400);
      expect(Object.keys(patched.json())).toEqual(['tenant']);
    }
    expect((await t.post('/api/ipam/prefixes/', { prefix: '10.78.0.0/24', vrf: { id: [vrf.id] } })).json()).toEqual({
      vrf: [`Related object not found using the provided attributes: {'id': [${vrf.id}]}`],
    });
    // a list is a value of an `__in` lookup only; nested dictionaries name related objects
    const inList = await t.post('/api/ipam/prefixes/', { prefix: '10.78.1.0/24', vrf: { id__in: [vrf.id] } });
    expect(inList.statusCode, inList.body).toBe(201);
    expect(inList.json().vrf.id).toBe(vrf.id);
    expect(await count('/api/ipam/prefixes/?prefix=10.78.0.0/24')).toBe(0);
  });

  it('refuses a generic relation id that is no integer with one message', async () => {
    const res = await t.post('/api/ipam/ip-addresses/', {
      address: '10.79.0.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ assigned_object_id: ['A valid integer is required.'] });
    const missing = await t.post('/api/ipam/ip-addresses/', {
      address: '10.79.0.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 0,
    });
    expect(missing.json()).toEqual({ assigned_object_id: ['Related object not found using the provided value: 0.'] });
    expect(await count('/api/ipam/ip-addresses/?address=10.79.0.1/24')).toBe(0);
  });
});

describe('custom fields, required fields and empty bodies', () => {
  it('refuses custom_fields as a string or naming a field that does not exist', async () => {
    const asString = await t.post('/api/dcim/sites/', { ...named('site'), custom_fields: 'x' });
    expect(asString.statusCode).toBe(400);
    expect(asString.json()).toEqual({
      custom_fields: [
        'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.',
      ],
    });
    const unknown = await t.post('/api/tenancy/tenants/', { ...named('tenant'), custom_fields: { no_such_cf: 1 } });
    expect(unknown.json()).toEqual({ __all__: ["Unknown field name 'no_such_cf' in custom field data."] });
  });

  it('refuses {} and a bulk item missing a required field; an empty list creates nothing', async () => {
    const before = await count('/api/dcim/sites/');
    expect((await t.post('/api/dcim/sites/', {})).json()).toEqual({
      name: ['This field is required.'],
      slug: ['This field is required.'],
    });
    const bulk = await t.post('/api/dcim/sites/', [named('site'), { name: uniq('site') }]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([{}, { slug: ['This field is required.'] }]);
    const whitespace = await t.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      payload: ' '.repeat(1_000_000),
      headers: { authorization: `Token ${t.token}`, 'content-type': 'application/json' },
    });
    expect(whitespace.statusCode).toBe(400);
    expect(whitespace.json()).toEqual({ non_field_errors: ['No data provided'] });
    // DRF ListSerializer allows an empty list: nothing to create
    const empty = await t.post('/api/dcim/sites/', []);
    expect(empty.statusCode).toBe(201);
    expect(empty.json()).toEqual([]);
    expect(await count('/api/dcim/sites/')).toBe(before);
  });
});

describe('bulk creates listing one object twice', () => {
  it('answers 400 on the duplicate item and stores neither', async () => {
    const device = await makeDevice(t);
    const location = (await t.post('/api/dcim/locations/', { ...named('loc'), site: device.site.id })).json();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/dcim/sites/', named('site'), 'name'],
      ['/api/dcim/racks/', { name: uniq('rack'), site: device.site.id, location: location.id }, '__all__'],
      ['/api/dcim/interfaces/', { name: uniq('eth'), device: device.id, type: '1000base-t' }, '__all__'],
    ];
    for (const [url, body, key] of cases) {
      const res = await t.post(url, [body, body]);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()[0]).toEqual({});
      expect(Object.keys(res.json()[1])).toContain(key);
      expect(await count(`${url}?name=${body.name}`)).toBe(0);
    }
    await makeInterface(t, device);
  });
});

describe('list filters with impossible values', () => {
  it('answers 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/api/dcim/sites/?created=notadate', 'created'],
      ['/api/dcim/sites/?created__gte=2020-13-45', 'created__gte'],
      ['/api/ipam/prefixes/?last_updated=xyz', 'last_updated'],
      ['/api/dcim/devices/?tag=no-such-tag', 'tag'],
      ['/api/ipam/prefixes/?mask_length=130', 'mask_length'],
      ['/api/ipam/ip-addresses/?mask_length=129', 'mask_length'],
      ['/api/ipam/prefixes/?mask_length__gte=-1', 'mask_length__gte'],
      ['/api/ipam/prefixes/?family=7', 'family'],
      ['/api/ipam/aggregates/?family=5', 'family'],
      ['/api/extras/custom-fields/?content_type_id=abc', 'content_type_id'],
    ];
    for (const [url, param] of cases) {
      const res = await t.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json()), url).toEqual([param]);
    }
    expect((await t.get('/api/ipam/prefixes/?family=7')).json()).toEqual({
      family: ['Select a valid choice. 7 is not one of the available choices.'],
    });
    expect((await t.get('/api/ipam/prefixes/?mask_length=130')).json()).toEqual({
      mask_length: ['Ensure this value is less than or equal to 128.'],
    });
    // 99 bits is an IPv6 mask length: a possible value, answered with what matches
    for (const ok of ['/api/ipam/prefixes/?family=6', '/api/ipam/prefixes/?mask_length=99&mask_length__gte=0'])
      expect((await t.get(ok)).statusCode, ok).toBe(200);
  });
});
