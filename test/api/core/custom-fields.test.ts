import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
const p = uniq('cf').replace(/-/g, '_');
const cf = (suffix: string) => `${p}_${suffix}`;
let tenantId: number;

beforeAll(async () => {
  t = await makeTestApp();
  const defs = [
    { name: cf('text'), type: 'text', content_types: ['dcim.site'] },
    { name: cf('exact'), type: 'text', filter_logic: 'exact', content_types: ['dcim.site'] },
    {
      name: cf('int'),
      type: 'integer',
      content_types: ['dcim.site', 'tenancy.tenant'],
      validation_minimum: 1,
      validation_maximum: 100,
      default: 7,
    },
    { name: cf('dec'), type: 'decimal', content_types: ['dcim.site'] },
    { name: cf('bool'), type: 'boolean', content_types: ['dcim.site'] },
    { name: cf('date'), type: 'date', content_types: ['dcim.site'] },
    { name: cf('url'), type: 'url', content_types: ['dcim.site'] },
    { name: cf('json'), type: 'json', content_types: ['dcim.site'] },
    { name: cf('sel'), type: 'select', choices: ['gold', 'silver'], content_types: ['dcim.site'] },
    { name: cf('multi'), type: 'multiselect', choices: ['a', 'b', 'c'], content_types: ['dcim.site'] },
    { name: cf('obj'), type: 'object', object_type: 'tenancy.tenant', content_types: ['dcim.site'] },
    { name: cf('objs'), type: 'multiobject', object_type: 'tenancy.tenant', content_types: ['dcim.site'] },
  ];
  const res = await t.post('/api/extras/custom-fields/', defs);
  expect(res.statusCode, res.body).toBe(201);
  tenantId = (await t.post('/api/tenancy/tenants/', { name: `${p}-t`, slug: `${p}-t` })).json().id;
});
afterAll(async () => t.close());

const site = (extra: Record<string, unknown>) => {
  const name = uniq('cfsite');
  return t.post('/api/dcim/sites/', { name, slug: name, ...extra });
};

describe('custom field values', () => {
  it('renders every custom field of the model, defaults filled on create', async () => {
    const body = (await site({})).json();
    expect(body.custom_fields[cf('int')]).toBe(7);
    expect(body.custom_fields[cf('text')]).toBeNull();
    expect(Object.keys(body.custom_fields)).toHaveLength(12);
  });

  it('stores and renders each type, objects nested', async () => {
    const values = {
      [cf('text')]: 'hello',
      [cf('int')]: 42,
      [cf('dec')]: 1.5,
      [cf('bool')]: true,
      [cf('date')]: '2024-02-29',
      [cf('url')]: 'https://example.com/x',
      [cf('json')]: { a: [1, 2] },
      [cf('sel')]: 'gold',
      [cf('multi')]: ['a', 'c'],
      [cf('obj')]: tenantId,
      [cf('objs')]: [tenantId],
    };
    const res = await site({ custom_fields: values });
    expect(res.statusCode, res.body).toBe(201);
    const out = res.json().custom_fields;
    expect(out[cf('int')]).toBe(42);
    expect(out[cf('json')]).toEqual({ a: [1, 2] });
    expect(out[cf('multi')]).toEqual(['a', 'c']);
    expect(out[cf('obj')]).toMatchObject({
      id: tenantId,
      url: expect.stringContaining(`/api/tenancy/tenants/${tenantId}/`),
    });
    expect(out[cf('objs')][0].id).toBe(tenantId);
  });

  it('merges sent keys on update', async () => {
    const created = (await site({ custom_fields: { [cf('text')]: 'keep', [cf('int')]: 5 } })).json();
    const res = await t.patch(`/api/dcim/sites/${created.id}/`, { custom_fields: { [cf('int')]: 9 } });
    expect(res.json().custom_fields[cf('text')]).toBe('keep');
    expect(res.json().custom_fields[cf('int')]).toBe(9);
  });

  it('rejects bad values under __all__ with NetBox wording', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ [cf('int')]: 'x' }, `Invalid value for custom field '${cf('int')}': Value must be an integer.`],
      [{ [cf('int')]: 1000 }, `Invalid value for custom field '${cf('int')}': Value must not exceed 100`],
      [{ nope: 1 }, "Unknown field name 'nope' in custom field data."],
      [
        { [cf('sel')]: 'bronze' },
        `Invalid value for custom field '${cf('sel')}': Invalid choice (bronze). Available choices are: gold, silver`,
      ],
      [
        { [cf('obj')]: 999999 },
        `Invalid value for custom field '${cf('obj')}': Related object not found using the provided numeric ID: 999999`,
      ],
    ];
    for (const [custom_fields, message] of cases) {
      const res = await site({ custom_fields });
      expect(res.statusCode).toBe(400);
      expect(res.json().__all__).toContain(message);
    }
    const notObject = await site({ custom_fields: [1] });
    expect(notObject.json().custom_fields[0]).toMatch(/must be passed as a dictionary/);
  });

  it('enforces required custom fields', async () => {
    const name = `${p}_req`;
    expect(
      (
        await t.post('/api/extras/custom-fields/', {
          name,
          type: 'text',
          required: true,
          content_types: ['tenancy.tenantgroup'],
        })
      ).statusCode,
    ).toBe(201);
    const res = await t.post('/api/tenancy/tenant-groups/', { name: uniq('g'), slug: uniq('g') });
    expect(res.statusCode).toBe(400);
    expect(res.json().__all__).toEqual([`Missing required custom field '${name}'.`]);
  });
});

describe('cf_ filters', () => {
  let a: number;
  let b: number;
  beforeAll(async () => {
    a = (
      await site({
        custom_fields: {
          [cf('text')]: 'Foobar',
          [cf('exact')]: 'Foobar',
          [cf('int')]: 50,
          [cf('bool')]: true,
          [cf('multi')]: ['b'],
          [cf('sel')]: 'silver',
        },
      })
    ).json().id;
    b = (
      await site({
        custom_fields: {
          [cf('text')]: 'other',
          [cf('exact')]: 'Foo',
          [cf('int')]: 60,
          [cf('bool')]: false,
          [cf('multi')]: ['a', 'b'],
        },
      })
    ).json().id;
  });
  const ids = async (q: string) =>
    (await t.get(`/api/dcim/sites/?id=${a}&id=${b}&${q}`))
      .json()
      .results.map((r: { id: number }) => r.id)
      .sort();

  it('matches loose text partially and case-insensitively, exact text exactly', async () => {
    expect(await ids(`cf_${cf('text')}=foo`)).toEqual([a]);
    expect(await ids(`cf_${cf('exact')}=Foo`)).toEqual([b]);
  });

  it('supports numeric lookups, booleans, selections and multiselect membership', async () => {
    expect(await ids(`cf_${cf('int')}__gte=55`)).toEqual([b]);
    expect(await ids(`cf_${cf('int')}=50`)).toEqual([a]);
    expect(await ids(`cf_${cf('bool')}=false`)).toEqual([b]);
    expect(await ids(`cf_${cf('sel')}=silver`)).toEqual([a]);
    expect(await ids(`cf_${cf('multi')}=a`)).toEqual([b]);
    expect(await ids(`cf_${cf('multi')}=b`)).toEqual([a, b].sort());
  });

  it('answers a value the custom field cannot take with 400 naming the parameter (never ignored)', async () => {
    const cases: Array<[string, string, string]> = [
      ['int', 'ten', 'Enter a whole number.'],
      ['int__gte', '1.5', 'Enter a whole number.'],
      ['dec', '0x10', 'Enter a number.'],
      ['date', '2024-02-30', 'Enter a valid date.'],
      ['bool', 'maybe', 'Must be a valid boolean: maybe is not one of true, false, 1, 0, yes, no, on, off.'],
      ['sel', 'bronze', 'Select a valid choice. bronze is not one of the available choices.'],
      ['multi', 'z', 'Select a valid choice. z is not one of the available choices.'],
      ['obj', 'x', 'Enter a whole number.'],
      ['objs', 'x', 'Enter a whole number.'],
      ['text__empty', 'perhaps', 'Must be a valid boolean: perhaps is not one of true, false, 1, 0, yes, no, on, off.'],
    ];
    for (const [suffix, value, message] of cases) {
      const param = `cf_${cf(suffix)}`;
      const res = await t.get(`/api/dcim/sites/?${param}=${value}`);
      expect(res.statusCode, param).toBe(400);
      expect(res.json(), param).toEqual({ [param]: [message] });
    }
  });

  it('takes the boolean words for a boolean custom field', async () => {
    expect(await ids(`cf_${cf('bool')}=no`)).toEqual([b]);
    expect(await ids(`cf_${cf('bool')}=1`)).toEqual([a]);
  });
});

describe('custom field definitions', () => {
  it('refuses to change the type', async () => {
    const def = (await t.get(`/api/extras/custom-fields/?name=${cf('dec')}`)).json().results[0];
    const res = await t.patch(`/api/extras/custom-fields/${def.id}/`, { type: 'integer' });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toEqual(['Changing the type of custom fields is not supported.']);
  });

  it('validates names, content types and select choices', async () => {
    // each refusal is a 400 naming the field, and nothing is created (a 201 would carry the same keys)
    const badName = await t.post('/api/extras/custom-fields/', { name: 'bad name', content_types: ['dcim.site'] });
    expect(badName.statusCode).toBe(400);
    expect(badName.json()).toEqual({ name: [expect.any(String)] });
    const badType = await t.post('/api/extras/custom-fields/', { name: `${p}_x`, content_types: ['dcim.nothing'] });
    expect(badType.statusCode).toBe(400);
    expect(badType.json()).toEqual({ content_types: [expect.stringContaining('dcim.nothing')] });
    const noChoices = await t.post('/api/extras/custom-fields/', {
      name: `${p}_y`,
      type: 'select',
      content_types: ['dcim.site'],
    });
    expect(noChoices.statusCode).toBe(400);
    expect(noChoices.json()).toEqual({ choices: [expect.any(String)] });
    expect((await t.get(`/api/extras/custom-fields/?name=${p}_x&name=${p}_y`)).json().count).toBe(0);
  });

  it('reports the data type', async () => {
    const def = (await t.get(`/api/extras/custom-fields/?name=${cf('multi')}`)).json().results[0];
    expect(def.data_type).toBe('array');
    expect(def.type).toEqual({ value: 'multiselect', label: 'Multiple selection' });
  });
});
