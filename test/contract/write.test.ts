/**
 * Contract: the write side of every writable model - create (single, bulk, all-or-nothing),
 * PUT, PATCH, bulk PATCH and PUT (all-or-nothing), DELETE (single and bulk, all-or-nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasIn } from '../../src/core/model/dialect.js';
import type { TestApp } from '../helpers/app.js';
import {
  BASE,
  DATE_RE,
  ISO_Z_RE,
  MISSING_ID,
  countOf,
  createMany,
  createOne,
  dataFor,
  defOf,
  detailPath,
  expectApplied,
  getJson,
  makeContractApp,
  resolve,
} from './harness.js';
import { type Json, WRITABLE } from './models.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeContractApp();
});
afterAll(async () => t.close());

/** the number of change records a request wrote */
const changesOf = async (t: TestApp, res: { headers: Record<string, unknown> }) =>
  Number(
    (await getJson(t, `/api/extras/object-changes/?request_id=${String(res.headers['x-request-id'])}&limit=1`)).count,
  );

const notFound = (id: unknown) => ({ id: [`Invalid pk "${String(id)}" - object does not exist.`] });

/** the field a row's invalid data names, and that data */
const invalidOf = (c: (typeof WRITABLE)[number]) => [Object.keys(c.invalid!)[0]!, c.invalid!] as const;

describe.each(WRITABLE)('$model writes', (c) => {
  const def = defOf(c);

  it('creates one object: 201, Location of the object, full representation', async () => {
    const [data] = await dataFor(t, c);
    const res = await t.post(c.path, data);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.id).toEqual(expect.any(Number));
    expect(body.url).toBe(`${BASE}${detailPath(c, body.id)}`);
    expect(res.headers.location).toBe(body.url);
    expect(body.display).toEqual(expect.any(String));
    expectApplied(def, body, data!);
    // the suite speaks 3.4: tags and custom fields only 4.4 shows are features.test.ts's
    if (hasIn(def.tags, '3.4')) expect(body.tags).toEqual([]);
    // a model may declare a field named tags of its own (config contexts: assignment tags)
    else if (!def.fields.tags) expect(body).not.toHaveProperty('tags');
    if (hasIn(def.customFields, '3.4')) expect(body.custom_fields).toEqual(expect.any(Object));
    else expect(body).not.toHaveProperty('custom_fields');
    if (def.timestamps) {
      expect(body.created).toMatch(DATE_RE);
      expect(body.last_updated).toMatch(ISO_Z_RE);
    }
    for (const [k, f] of Object.entries(def.fields)) if (f.writeOnly) expect(body).not.toHaveProperty(k);
  });

  it('creates from a JSON list: 201 and the created objects in input order', async () => {
    const data = await dataFor(t, c, 2);
    const res = await t.post(c.path, data);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.location).toBeUndefined();
    const body = res.json() as Json[];
    expect(body).toHaveLength(2);
    body.forEach((o, i) => expectApplied(def, o, data[i]!));
    // the answer is what a read shows (represent/render-written.ts), but a token's key, shown once
    const shownOnce = c.model === 'users.token' ? ['key'] : [];
    const readable = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => !shownOnce.includes(k)));
    for (const o of body) expect(readable(await getJson(t, detailPath(c, o.id)))).toEqual(readable(o));
  });

  it('rejects a bulk create with one bad item: 400 aligned with the input, nothing created', async () => {
    const [field, invalid] = invalidOf(c);
    const [good, other] = await dataFor(t, c, 2);
    const before = await countOf(t, c);
    const res = await t.post(c.path, [good, { ...other, ...invalid }]);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as Json[];
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual({});
    expect(body[1]).toHaveProperty(field);
    expect(await countOf(t, c)).toBe(before);
  });

  // a uniqueness rule holds between the items of one request too
  it(`answers a bulk create listing the same object twice: ${c.sameTwice === 'refused' ? '400 aligned naming the second, nothing created' : '201, both created'}`, async () => {
    expect(['refused', 'allowed'], 'the row says what the same object twice gets').toContain(c.sameTwice);
    const [data] = await dataFor(t, c);
    const before = await countOf(t, c);
    const res = await t.post(c.path, [data, data]);
    if (c.sameTwice === 'allowed') {
      expect(res.statusCode, res.body).toBe(201);
      expect(await countOf(t, c)).toBe(before + 2);
      return;
    }
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as Json[];
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual({});
    expect(Object.keys(body[1]!).length).toBeGreaterThan(0);
    expect(await countOf(t, c)).toBe(before);
  });

  it('replaces an object with PUT', async () => {
    const obj = await createOne(t, c);
    const [fresh] = await dataFor(t, c);
    const data = { ...fresh, ...resolve(c.update) };
    const res = await t.put(detailPath(c, obj.id), data);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.id).toBe(obj.id);
    expectApplied(def, body, data);
    expect(await getJson(t, detailPath(c, obj.id))).toEqual(body);
  });

  // every writable row lists them (an empty list where NetBox requires nothing)
  const required = c.required!;
  if (!required) throw new Error(`${c.model}: the contract row lists no required fields`);
  // only models with required fields get this check
  if (required.length > 0)
    it('rejects a PUT without the required fields: 400 "This field is required."', async () => {
      const obj = await createOne(t, c);
      const res = await t.put(
        detailPath(c, obj.id),
        Object.fromEntries(Object.entries(resolve(c.update)).filter(([k]) => !required.includes(k))),
      );
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as Record<string, string[]>;
      for (const k of required) expect(body[k], k).toEqual(['This field is required.']);
      expect(await getJson(t, detailPath(c, obj.id))).toEqual(obj);
    });

  it('bulk-replaces with PUT on the list', async () => {
    const [a, b] = await createMany(t, c, 2);
    const [da, db] = await dataFor(t, c, 2);
    const res = await t.put(c.path, [
      { id: a!.id, ...da },
      { id: b!.id, ...db },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expectApplied(def, await getJson(t, detailPath(c, a!.id)), da!);
    expectApplied(def, await getJson(t, detailPath(c, b!.id)), db!);
  });

  it('updates only the sent attributes with PATCH', async () => {
    const obj = await createOne(t, c);
    const patch = resolve(c.update);
    const res = await t.patch(detailPath(c, obj.id), patch);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectApplied(def, body, patch);
    const untouched = Object.keys(obj).filter((k) => !(k in patch) && !['last_updated', 'display'].includes(k));
    for (const k of untouched) expect(body[k], k).toEqual(obj[k]);
    // to the microsecond, as written: a PATCH may land in the same millisecond as the create
    if (def.timestamps)
      expect(microseconds(body.last_updated)).toBeGreaterThan(microseconds(obj.last_updated as string));
    expect(await getJson(t, detailPath(c, obj.id))).toEqual(body);
  });

  it('bulk-updates with PATCH, each object with its own attributes', async () => {
    const [a, b] = await createMany(t, c, 2);
    const pa = resolve(c.update);
    const pb = resolve(c.altUpdate);
    const res = await t.patch(c.path, [
      { id: a!.id, ...pa },
      { id: b!.id, ...pb },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json[];
    expect(body.map((o) => o.id).sort()).toEqual([a!.id, b!.id].sort());
    const gotA = await getJson(t, detailPath(c, a!.id));
    const gotB = await getJson(t, detailPath(c, b!.id));
    expectApplied(def, gotA, pa);
    expectApplied(def, gotB, pb);
    // each object received only its own patch
    for (const k of Object.keys(pb).filter((k) => !(k in pa))) expect(gotA[k], `${k} of a`).toEqual(a![k]);
    for (const k of Object.keys(pa).filter((k) => !(k in pb))) expect(gotB[k], `${k} of b`).toEqual(b![k]);
  });

  it('rejects a bulk update with one invalid item and changes nothing', async () => {
    const [field, invalid] = invalidOf(c);
    const [a, b] = await createMany(t, c, 2);
    const res = await t.patch(c.path, [
      { id: a!.id, ...resolve(c.update) },
      { id: b!.id, ...invalid },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toHaveProperty(field);
    expect(await getJson(t, detailPath(c, a!.id))).toEqual(a);
    expect(await getJson(t, detailPath(c, b!.id))).toEqual(b);
  });

  it('rejects an invalid PATCH with 400 naming the field', async () => {
    const [field, invalid] = invalidOf(c);
    const obj = await createOne(t, c);
    const res = await t.patch(detailPath(c, obj.id), invalid);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toEqual([field]);
    expect(await getJson(t, detailPath(c, obj.id))).toEqual(obj);
  });

  it('deletes one object: 204 with an empty body, then 404', async () => {
    const obj = await createOne(t, c);
    const res = await t.del(detailPath(c, obj.id));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.get(detailPath(c, obj.id))).statusCode).toBe(404);
    expect((await t.del(detailPath(c, obj.id))).statusCode).toBe(404);
  });

  it('bulk-deletes a list of {id}: 204, then each is 404', async () => {
    const objs = await createMany(t, c, 3);
    const res = await t.del(
      c.path,
      objs.slice(0, 2).map((o) => ({ id: o.id })),
    );
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    for (const o of objs.slice(0, 2)) expect((await t.get(detailPath(c, o.id))).statusCode).toBe(404);
    expect((await t.get(detailPath(c, objs[2]!.id))).statusCode).toBe(200);
  });

  // spec: Operations rules 1 - replaces NetBox 3.4's silent skip of ids it cannot find
  it('fails a whole bulk delete naming an id that does not exist: 400 naming it, nothing deleted or logged', async () => {
    const [kept, gone] = await createMany(t, c, 2);
    expect((await t.del(detailPath(c, gone!.id))).statusCode).toBe(204);
    const before = await countOf(t, c);
    const res = await t.del(c.path, [{ id: kept!.id }, { id: gone!.id }, { id: MISSING_ID }]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual([{}, notFound(gone!.id), notFound(MISSING_ID)]);
    expect(await getJson(t, detailPath(c, kept!.id))).toEqual(kept);
    expect(await countOf(t, c)).toBe(before);
    expect(await changesOf(t, res)).toBe(0);
  });

  it('fails a whole bulk PATCH or PUT naming an id that does not exist or twice: 400 naming it, nothing changed or logged', async () => {
    const [a, b] = await createMany(t, c, 2);
    const [fresh] = await dataFor(t, c);
    const bodies: Array<[string, Json[], Json[]]> = [
      [
        'PATCH',
        [
          { id: a!.id, ...resolve(c.update) },
          { id: MISSING_ID, ...resolve(c.update) },
        ],
        [{}, notFound(MISSING_ID)],
      ],
      [
        'PUT',
        [
          { id: MISSING_ID, ...fresh },
          { id: a!.id, ...fresh },
        ],
        [notFound(MISSING_ID), {}],
      ],
      [
        'PATCH',
        [{ id: a!.id, ...resolve(c.update) }, { id: b!.id }, { id: a!.id, ...resolve(c.altUpdate) }],
        [{}, {}, { id: [`Duplicate id ${a!.id}: a bulk update lists an object once.`] }],
      ],
    ];
    for (const [method, body, errors] of bodies) {
      const res = await t.request(method, c.path, { body });
      expect(res.statusCode, `${method} ${res.body}`).toBe(400);
      expect(res.json()).toEqual(errors);
      expect(await changesOf(t, res)).toBe(0);
    }
    expect(await getJson(t, detailPath(c, a!.id))).toEqual(a);
    expect(await getJson(t, detailPath(c, b!.id))).toEqual(b);
  });

  it('rejects bulk update and delete items without an integer id', async () => {
    const obj = await createOne(t, c);
    for (const method of ['PATCH', 'DELETE']) {
      const res = await t.request(method, c.path, { body: [{ id: obj.id }, {}] });
      expect(res.statusCode, method).toBe(400);
      expect(res.json(), method).toEqual([{}, { id: ['This field is required.'] }]);
    }
    expect(await getJson(t, detailPath(c, obj.id))).toEqual(obj);
  });
});

/** an ISO 8601 timestamp (`...T19:17:36.581516Z`) in microseconds since the epoch */
function microseconds(iso: string): number {
  const fraction = /\.(\d+)Z$/.exec(iso)?.[1] ?? '';
  return Date.parse(iso.replace(/\.\d+Z$/, 'Z')) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}
