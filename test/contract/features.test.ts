/**
 * Contract: the features a model may carry - tags (assign by id or attributes, nested rendering,
 * `tag` filter, change log) and custom fields (rendered, written, merged, filtered by cf_<name>).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import { countOf, dataFor, defOf, detailPath, getJson, idsOf, makeContractApp } from './harness.js';
import { type Json, resolve, WRITABLE } from './models.js';
import { inDialect44, uniq, makeTag, makeCustomField } from '../factories/index.js';
import type { Dialect } from '../../src/core/model/dialect.js';

let app: TestApp;
beforeAll(async () => {
  app = await makeContractApp();
});
afterAll(async () => app.close());

/**
 * The app speaking the dialect that shows a feature: the suite's (3.4) when every dialect does, else
 * the one dialect declared (`tags: '4.4'`: NetBox 4's contact assignments), asked for per request.
 */
function appShowing(feature: boolean | Dialect): TestApp {
  return feature === true || feature === '3.4' ? app : inDialect44(app);
}

const created = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

describe.each(WRITABLE.filter((c) => defOf(c).tags))('$model tags', (c) => {
  let t: TestApp;
  beforeAll(() => {
    t = appShowing(defOf(c).tags);
  });
  it('assigns tags by id and by {"slug": …} and renders them nested', async () => {
    const [red, blue] = [await makeTag(t), await makeTag(t)];
    const [d1, d2] = await dataFor(t, c, 2);
    const res = await t.post(c.path, [
      { ...d1, tags: [red.id] },
      { ...d2, tags: [{ slug: red.slug }, { slug: blue.slug }] },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [a, b] = res.json() as Json[];
    const nested = (tag: Json) => ({
      id: tag.id,
      url: tag.url,
      display: tag.name,
      name: tag.name,
      slug: tag.slug,
      color: tag.color,
      // NetBox 4's nested tag has its description too
      ...(c.dialect || typeof defOf(c).tags === 'string' ? { description: tag.description } : {}),
    });
    expect(a!.tags).toEqual([nested(red)]);
    expect((b!.tags as Json[]).map((x) => x.id).sort()).toEqual([red.id, blue.id].sort());
    expect((await getJson(t, detailPath(c, b!.id))).tags).toEqual(b!.tags);
    // reference 11: the change record lists tag names, sorted
    const changes = await getJson(
      t,
      `/api/extras/object-changes/?request_id=${res.headers['x-request-id']}&changed_object_id=${b!.id}`,
    );
    const record = (changes.results as Json[]).find((r) => r.changed_object_type === c.model)!;
    expect((record.postchange_data as Json).tags).toEqual([String(red.name), String(blue.name)].sort());
  });

  it('filters by tag= (repeated tags AND) and tag__n=', async () => {
    const [red, blue] = [await makeTag(t), await makeTag(t)];
    const [d1, d2] = await dataFor(t, c, 2);
    const [a, b] = (
      await t.post(c.path, [
        { ...d1, tags: [red.id] },
        { ...d2, tags: [red.id, blue.id] },
      ])
    ).json() as Json[];
    const ids = async (q: string) => idsOf(await getJson(t, `${c.path}?${q}&ordering=id`));
    expect(await ids(`tag=${red.slug}`)).toEqual([a!.id, b!.id]);
    expect(await ids(`tag=${red.slug}&tag=${blue.slug}`)).toEqual([b!.id]);
    expect(await ids(`tag=${red.slug}&tag__n=${blue.slug}`)).toEqual([a!.id]);
    const bad = await t.get(`${c.path}?tag=${uniq('no-such-tag')}`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['tag']);
  });

  it('replaces tags on PATCH, clears them with [], keeps them when omitted (PATCH and PUT)', async () => {
    const [red, blue] = [await makeTag(t), await makeTag(t)];
    const [data] = await dataFor(t, c);
    const obj = (await t.post(c.path, { ...data, tags: [red.id] })).json();
    const tagIds = async (body: unknown) => ((body as Json).tags as Json[]).map((x) => x.id);
    expect(await tagIds((await t.patch(detailPath(c, obj.id), { tags: [{ slug: blue.slug }] })).json())).toEqual([
      blue.id,
    ]);
    expect(await tagIds((await t.patch(detailPath(c, obj.id), resolve(c.update))).json())).toEqual([blue.id]);
    const [fresh] = await dataFor(t, c);
    // reference 2: omitted tags stay, even on PUT
    expect(await tagIds((await t.put(detailPath(c, obj.id), fresh)).json())).toEqual([blue.id]);
    expect(await tagIds((await t.patch(detailPath(c, obj.id), { tags: [] })).json())).toEqual([]);
  });

  it('rejects an unknown tag with 400 under tags and creates nothing', async () => {
    const [data] = await dataFor(t, c);
    const before = await countOf(t, c);
    const res = await t.post(c.path, { ...data, tags: [{ slug: uniq('missing') }] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['tags']);
    expect(await countOf(t, c)).toBe(before);
  });
});

describe.each(WRITABLE.filter((c) => defOf(c).customFields))('$model custom fields', (c) => {
  let t: TestApp;
  beforeAll(() => {
    t = appShowing(defOf(c).customFields);
  });
  /** a text custom field of this model only */
  async function makeField(extra: Json = {}): Promise<string> {
    return (await makeCustomField(t, { content_types: [c.model], ...extra })).name;
  }

  it('renders every custom field of the model, null when unset, and stores written values', async () => {
    const [cf1, cf2] = [await makeField(), await makeField()];
    const [d1, d2] = await dataFor(t, c, 2);
    const [a, b] = created(await t.post(c.path, [{ ...d1, custom_fields: { [cf1]: 'alpha' } }, d2])) as Json[];
    expect(a!.custom_fields).toMatchObject({ [cf1]: 'alpha', [cf2]: null });
    expect(b!.custom_fields).toMatchObject({ [cf1]: null, [cf2]: null });
    expect((await getJson(t, detailPath(c, a!.id))).custom_fields).toEqual(a!.custom_fields);
  });

  it('merges sent custom fields on PATCH and keeps the others', async () => {
    const [cf1, cf2] = [await makeField(), await makeField()];
    const [data] = await dataFor(t, c);
    const obj = created(await t.post(c.path, { ...data, custom_fields: { [cf1]: 'one', [cf2]: 'two' } }));
    const res = await t.patch(detailPath(c, obj.id), { custom_fields: { [cf2]: 'changed' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().custom_fields).toMatchObject({ [cf1]: 'one', [cf2]: 'changed' });
    const kept = await t.patch(detailPath(c, obj.id), resolve(c.update));
    expect(kept.json().custom_fields).toMatchObject({ [cf1]: 'one', [cf2]: 'changed' });
  });

  it('filters by cf_<name> (loose: case-insensitive contains; exact: whole value)', async () => {
    const loose = await makeField({ filter_logic: 'loose' });
    const exact = await makeField({ filter_logic: 'exact' });
    const [d1, d2] = await dataFor(t, c, 2);
    const [a, b] = created(
      await t.post(c.path, [
        { ...d1, custom_fields: { [loose]: 'Needle-A', [exact]: 'needle' } },
        { ...d2, custom_fields: { [loose]: 'other', [exact]: 'needle-b' } },
      ]),
    ) as Json[];
    const ids = async (q: string) => idsOf(await getJson(t, `${c.path}?${q}&ordering=id`));
    expect(await ids(`cf_${loose}=needle`)).toEqual([a!.id]);
    expect(await ids(`cf_${exact}=needle`)).toEqual([a!.id]);
    expect(await ids(`cf_${exact}=needle-b`)).toEqual([b!.id]);
  });

  it('rejects an unknown custom field name with 400 and creates nothing', async () => {
    const [data] = await dataFor(t, c);
    const before = await countOf(t, c);
    const res = await t.post(c.path, { ...data, custom_fields: { no_such_field: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['__all__']);
    expect(await countOf(t, c)).toBe(before);
  });

  it('records custom field data in the change log', async () => {
    const cf = await makeField();
    const [data] = await dataFor(t, c);
    const res = await t.post(c.path, { ...data, custom_fields: { [cf]: 'logged' } });
    const obj = created(res);
    const changes = await getJson(
      t,
      `/api/extras/object-changes/?request_id=${res.headers['x-request-id']}&changed_object_id=${obj.id}`,
    );
    const record = (changes.results as Json[]).find((r) => r.changed_object_type === c.model)!;
    expect((record.postchange_data as Json).custom_fields).toMatchObject({ [cf]: 'logged' });
  });
});
