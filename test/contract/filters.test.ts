/**
 * Contract: the filters every model's list has (id and its lookups, created, q, ordering by every
 * orderable field, unknown names ignored, bad values rejected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createMany, createOne, dataFor, defOf, getJson, idsOf, makeContractApp } from './harness.js';
import { type Json, resolve, WRITABLE } from './models.js';
import { uniq } from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeContractApp();
});
afterAll(async () => t.close());

const nextDay = (date: string) =>
  new Date(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe.each(WRITABLE)('$model generic filters', (c) => {
  const def = defOf(c);
  const list = async (query: string) => getJson(t, `${c.path}?${query}`);

  it('filters by id, id__n, id__gt, id__gte and id__lte', async () => {
    const [a, b, d] = (await createMany(t, c, 3)).map((o) => o.id as number);
    const range = `id__gte=${a}&id__lte=${d}&ordering=id`;
    expect(idsOf(await list(`id=${b}`))).toEqual([b]);
    expect(idsOf(await list(`id=${a}&id=${d}&ordering=id`))).toEqual([a, d]);
    expect(idsOf(await list(`${range}&id__n=${b}`))).toEqual([a, d]);
    expect(idsOf(await list(`id__gt=${a}&id__lte=${d}&ordering=id`))).toEqual([b, d]);
    expect((await list(`id=${b}`)).count).toBe(1);
    expect((await list(`id__n=${b}&limit=1`)).count).toBe(((await list('limit=1')).count as number) - 1);
  });

  it('orders by ordering=-id and ordering=id', async () => {
    const ids = (await createMany(t, c, 3)).map((o) => o.id as number);
    const range = `id__gte=${ids[0]}&id__lte=${ids[2]}`;
    expect(idsOf(await list(`${range}&ordering=-id`))).toEqual([...ids].reverse());
    expect(idsOf(await list(`${range}&ordering=id`))).toEqual(ids);
  });

  // docs/api-differences.md (Strict input): an ordering name is an orderable field (its column, a foreign key's id, a count) or a 400
  it('orders by every plain field, foreign key and count, and refuses other names with 400', async () => {
    const PLAIN = new Set([
      'string',
      'text',
      'slug',
      'integer',
      'decimal',
      'boolean',
      'date',
      'datetime',
      'choice',
      'fk',
      'ipaddress',
      'ipprefix',
      'mac',
      'contenttype',
      'integers',
      'strings',
    ]);
    const orderable = [
      ...Object.entries(def.fields)
        .filter(([, f]) => PLAIN.has(f.kind) && !f.noOrdering && !f.writeOnly && !f.notStored)
        .map(([k]) => k),
      ...Object.keys(def.counts),
    ];
    // objects that differ beyond their names: one as created, one with each of the row's patches
    const [, b, d] = await createMany(t, c, 3);
    for (const [obj, patch] of [
      [b!, resolve(c.update)],
      [d!, resolve(c.altUpdate)],
    ] as const) {
      const res = await t.patch(`${c.path}${obj.id}/`, patch);
      expect(res.statusCode, res.body).toBe(200);
    }
    // the value a field orders by, as the representation shows it (a choice's value, a related object's id)
    const orderValue = (row: Json, name: string): unknown => {
      const v = row[name] as Json | null | undefined;
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v.value ?? v.id ?? JSON.stringify(v)) : v;
    };
    let distinct = 0;
    for (const name of orderable) {
      const read = async (dir: string) => {
        const res = await t.get(`${c.path}?ordering=${dir}${name}&limit=1000`);
        expect(res.statusCode, `ordering=${dir}${name}: ${res.body}`).toBe(200);
        return (res.json().results as Json[]).map((row) => JSON.stringify(orderValue(row, name) ?? null));
      };
      const [up, down] = [await read(''), await read('-')];
      // descending is ascending reversed, value for value (ties share a value, nulls go last then
      // first): an ignored ordering would give both the same order
      expect(down, `ordering=-${name} reverses ordering=${name}`).toEqual([...up].reverse());
      if (new Set(up).size > 1) {
        distinct += 1;
        expect(down, `ordering=${name} changes the order`).not.toEqual(up);
      }
      // numbers and times also compare in JavaScript: the smaller comes first
      const kind = def.fields[name]?.kind ?? 'count';
      if (['integer', 'decimal', 'date', 'datetime', 'count'].includes(kind)) {
        const present = up.map((v) => JSON.parse(v)).filter((v) => v !== null);
        const key = (v: unknown) => (kind === 'date' || kind === 'datetime' ? Date.parse(String(v)) : Number(v));
        const sorted = [...present].sort((x, y) => key(x) - key(y));
        expect(present, `ordering=${name} ascends`).toEqual(sorted);
      }
    }
    // at least the name-like fields and id-like fields tell the order apart
    expect(distinct, 'fields whose values differ among the objects').toBeGreaterThan(0);
    const res = await t.get(`${c.path}?ordering=id,no_such_field`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ordering: ['Select a valid choice. no_such_field is not one of the available choices.'],
    });
  });

  it('ignores an unknown filter name', async () => {
    const ids = (await createMany(t, c, 2)).map((o) => o.id);
    const body = await list(`id=${ids[0]}&id=${ids[1]}&ordering=id&no_such_filter=zzz&name__nonsense=1`);
    expect(idsOf(body)).toEqual(ids);
  });

  it('rejects a bad id value with 400 naming the parameter', async () => {
    for (const param of ['id', 'id__n', 'id__gt']) {
      const res = await t.get(`${c.path}?${param}=abc`);
      expect(res.statusCode, param).toBe(400);
      expect(Object.keys(res.json()), param).toEqual([param]);
      expect(res.json()[param]).toEqual([expect.any(String)]);
    }
  });

  it('finds the object with q= and nothing for text no object holds', async () => {
    const [data] = await dataFor(t, c);
    const obj = (await t.post(c.path, data)).json();
    if (!def.search.length && !def.filters.q) {
      // a model with nothing to search has no q (NetBox 4.1's subscriptions): ignored as any unknown parameter
      expect((await list(`q=${uniq('absent')}`)).count).toBe((await list('')).count);
      return;
    }
    const needle = (c.search ?? ((d: Json) => String(d.name)))(data!, obj);
    expect(idsOf(await list(`q=${encodeURIComponent(needle)}`))).toEqual([obj.id]);
    expect((await list(`q=${uniq('absent')}`)).count).toBe(0);
  });

  const hasCreated = def.timestamps || 'created' in def.fields;
  // only models that have a created timestamp get this check
  if (hasCreated)
    it('filters by created__gte', async () => {
      const obj = await createOne(t, c);
      const day = String(obj.created).slice(0, 10);
      expect(idsOf(await list(`id=${obj.id}&created__gte=${day}`))).toEqual([obj.id]);
      expect(idsOf(await list(`id=${obj.id}&created__gte=${nextDay(day)}`))).toEqual([]);
      expect(idsOf(await list(`id=${obj.id}&created__lt=${nextDay(day)}`))).toEqual([obj.id]);
      const bad = await t.get(`${c.path}?created__gte=yesterday`);
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json())).toEqual(['created__gte']);
    });
});
