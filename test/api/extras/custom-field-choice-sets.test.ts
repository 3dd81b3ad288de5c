/**
 * Custom field choice sets (NetBox 3.6) and the custom field's `choice_set`: values of selection
 * fields are checked against the set's choices; a set in use cannot be deleted; changing a set's
 * choices keeps stored values; the predefined base lists are not shipped (400). NetBox 3.4's
 * inline `choices` keep working beside them (test/api/core/custom-fields.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeSite, makeChoiceSet, makeCustomField, type Json } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const SETS = '/api/extras/custom-field-choice-sets/';
const FIELDS = '/api/extras/custom-fields/';
const cfName = () => uniq('cs').replace(/-/g, '_');

const makeSet = (extra: Record<string, unknown> = {}) =>
  makeChoiceSet(t, {
    extra_choices: [
      ['gold', 'Gold'],
      ['silver', 'Silver'],
    ],
    ...extra,
  });
const makeField = (set: Json, type = 'select') => makeCustomField(t, { type, choice_set: set.id });

describe('/api/extras/custom-field-choice-sets/', () => {
  it("renders NetBox 3.6's fields, the count of its choices, and a brief form with it", async () => {
    const set = await makeSet({ description: 'metals' });
    expect(Object.keys(set).sort()).toEqual(
      [
        'id',
        'url',
        'display',
        'name',
        'description',
        'base_choices',
        'extra_choices',
        'order_alphabetically',
        'choices_count',
        'created',
        'last_updated',
      ].sort(),
    );
    expect(set).toMatchObject({
      base_choices: null,
      extra_choices: [
        ['gold', 'Gold'],
        ['silver', 'Silver'],
      ],
      order_alphabetically: false,
      choices_count: 2,
    });
    const brief = (await t.get(`${SETS}${set.id}/?brief=1`)).json();
    expect(brief).toEqual({ id: set.id, url: set.url, display: set.name, name: set.name, choices_count: 2 });
  });

  it('stores the choices sorted by value when they are ordered alphabetically', async () => {
    const set = await makeSet({
      extra_choices: [
        ['zinc', 'Zinc'],
        ['copper', 'Copper'],
        ['iron', 'Iron'],
      ],
      order_alphabetically: true,
    });
    expect(set.extra_choices.map((c: string[]) => c[0])).toEqual(['copper', 'iron', 'zinc']);
    const unsorted = await makeSet({
      extra_choices: [
        ['b', 'B'],
        ['a', 'A'],
      ],
    });
    const patched = (await t.patch(`${SETS}${unsorted.id}/`, { order_alphabetically: true })).json();
    expect(patched.extra_choices).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
  });

  it('answers 400 for a predefined base list, saying it is not shipped', async () => {
    for (const base of ['IATA', 'ISO_3166', 'UN_LOCODE']) {
      const res = await t.post(SETS, { name: uniq('set'), base_choices: base, extra_choices: [] });
      expect(res.statusCode, base).toBe(400);
      expect(res.json().base_choices[0]).toContain('not available in this service');
    }
    expect(
      (await t.post(SETS, { name: uniq('set'), base_choices: 'bogus', extra_choices: [['a', 'A']] })).json(),
    ).toHaveProperty('base_choices');
  });

  it('answers 400 without choices, or for choices that are no [value, label] pairs', async () => {
    const none = await t.post(SETS, { name: uniq('set'), extra_choices: [] });
    expect(none.json()).toEqual({ __all__: ['Must define base or extra choices.'] });
    expect((await t.post(SETS, { name: uniq('set') })).json()).toEqual({ extra_choices: ['This field is required.'] });
    for (const extra of [
      [['a']],
      [['a', 'A', 'x']],
      'a',
      [[1, 'One']],
      [
        ['a', 'A'],
        ['a', 'Again'],
      ],
      [['x'.repeat(101), 'long']],
    ]) {
      const res = await t.post(SETS, { name: uniq('set'), extra_choices: extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(Object.keys(res.json())).toEqual(['extra_choices']);
    }
  });

  it('filters by choice value, name and order_alphabetically', async () => {
    const set = await makeSet({ extra_choices: [['platinum-x', 'Platinum']] });
    const ids = async (q: string) =>
      ((await t.get(`${SETS}?${q}`)).json().results as Array<{ id: number }>).map((r) => r.id);
    expect(await ids('choice=platinum-x')).toEqual([set.id]);
    expect(await ids('choice=Platinum')).toEqual([]);
    expect(await ids(`name=${set.name}&order_alphabetically=false`)).toEqual([set.id]);
    expect(await ids(`name=${set.name}&order_alphabetically=true`)).toEqual([]);
  });
});

describe('/api/extras/custom-field-choice-sets/<id>/choices/', () => {
  it('lists the choices as id and display, paginated, filtered by q on value or label', async () => {
    const set = await makeSet({
      extra_choices: [
        ['au', 'Gold'],
        ['ag', 'Silver'],
        ['cu', 'Copper'],
      ],
    });
    const url = `${SETS}${set.id}/choices/`;
    const all = (await t.get(url)).json();
    expect(all).toEqual({
      count: 3,
      next: null,
      previous: null,
      results: [
        { id: 'au', display: 'Gold' },
        { id: 'ag', display: 'Silver' },
        { id: 'cu', display: 'Copper' },
      ],
    });
    expect((await t.get(`${url}?q=SIL`)).json().results).toEqual([{ id: 'ag', display: 'Silver' }]);
    expect((await t.get(`${url}?q=cu`)).json().results).toEqual([{ id: 'cu', display: 'Copper' }]);
    const page = (await t.get(`${url}?limit=1&offset=1`)).json();
    expect(page.results).toEqual([{ id: 'ag', display: 'Silver' }]);
    expect(new URL(page.next).searchParams.get('offset')).toBe('2');
    expect((await t.get(`${SETS}999999/choices/`)).statusCode).toBe(404);
    expect((await t.get(`${url}?bogus=1`)).statusCode).toBe(400);
  });
});

describe('custom fields with a choice set', () => {
  it('renders choice_set nested, and filters fields by it', async () => {
    const set = await makeSet();
    const field = await makeField(set);
    expect(field.choice_set).toEqual({ id: set.id, url: set.url, display: set.name, name: set.name, choices_count: 2 });
    expect(field.choices).toBeNull();
    const ids = async (q: string) =>
      ((await t.get(`${FIELDS}?${q}`)).json().results as Array<{ id: number }>).map((r) => r.id);
    expect(await ids(`choice_set_id=${set.id}`)).toEqual([field.id]);
    expect(await ids(`choice_set=${encodeURIComponent(set.name)}`)).toEqual([field.id]);
  });

  it("checks select and multiselect values against the set's choices", async () => {
    const set = await makeSet();
    const one = await makeField(set, 'select');
    const many = await makeField(set, 'multiselect');
    const site = await makeSite(t);
    const ok = await t.patch(`/api/dcim/sites/${site.id}/`, {
      custom_fields: { [one.name]: 'gold', [many.name]: ['gold', 'silver'] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const bad = await t.patch(`/api/dcim/sites/${site.id}/`, { custom_fields: { [one.name]: 'bronze' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().__all__[0]).toBe(
      `Invalid value for custom field '${one.name}': Invalid choice (bronze). Available choices are: gold, silver`,
    );
    expect(
      (await t.patch(`/api/dcim/sites/${site.id}/`, { custom_fields: { [many.name]: ['gold', 'tin'] } })).statusCode,
    ).toBe(400);
  });

  it("keeps stored values when the set's choices change; new writes follow the new choices", async () => {
    const set = await makeSet();
    const field = await makeField(set);
    const site = await makeSite(t, { custom_fields: { [field.name]: 'silver' } });
    const changed = await t.patch(`${SETS}${set.id}/`, {
      extra_choices: [
        ['gold', 'Gold'],
        ['bronze', 'Bronze'],
      ],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().choices_count).toBe(2);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().custom_fields[field.name]).toBe('silver');
    // an update that leaves the field alone keeps it
    expect(
      (await t.patch(`/api/dcim/sites/${site.id}/`, { description: 'touched' })).json().custom_fields[field.name],
    ).toBe('silver');
    expect(
      (await t.patch(`/api/dcim/sites/${site.id}/`, { custom_fields: { [field.name]: 'silver' } })).statusCode,
    ).toBe(400);
    expect(
      (await t.patch(`/api/dcim/sites/${site.id}/`, { custom_fields: { [field.name]: 'bronze' } })).statusCode,
    ).toBe(200);
  });

  it('refuses to delete a set in use (409), and deletes it once unused', async () => {
    const set = await makeSet();
    const field = await makeField(set);
    const res = await t.del(`${SETS}${set.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: `Unable to delete object. 1 dependent objects were found: ${field.name} (${field.id})`,
    });
    expect((await t.del(`${FIELDS}${field.id}/`)).statusCode).toBe(204);
    expect((await t.del(`${SETS}${set.id}/`)).statusCode).toBe(204);
  });

  it('takes inline choices or a set on a selection field, not both and not neither; neither on other types', async () => {
    const set = await makeSet();
    const base = { type: 'select', content_types: ['dcim.site'] };
    const both = await t.post(FIELDS, { ...base, name: cfName(), choices: ['a'], choice_set: set.id });
    expect(both.statusCode).toBe(400);
    expect(Object.keys(both.json())).toEqual(['choice_set']);
    const neither = await t.post(FIELDS, { ...base, name: cfName() });
    expect(Object.keys(neither.json())).toEqual(['choices']);
    const onText = await t.post(FIELDS, {
      name: cfName(),
      type: 'text',
      content_types: ['dcim.site'],
      choice_set: set.id,
    });
    expect(onText.json()).toEqual({ choice_set: ['Choices may be set only on selection fields.'] });
    // inline to set, on an existing field
    const inline = (await t.post(FIELDS, { ...base, name: cfName(), choices: ['a', 'b'] })).json();
    const moved = await t.patch(`${FIELDS}${inline.id}/`, { choices: null, choice_set: set.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().choice_set.id).toBe(set.id);
  });
});
