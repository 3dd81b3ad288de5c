/**
 * Contract: read-only models (content types, the change log) answer reads like every model and
 * 405 to every write, with the read-only Allow header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { BASE, MISSING_ID, READ_ALLOW, detailPath, getJson, idsOf, makeContractApp } from './harness.js';
import { type ContractCase, type Json, READ_ONLY } from './models.js';
import { uniq } from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeContractApp();
});
afterAll(async () => t.close());

/** Ids of at least three objects of a read-only model; writes a few tags so change records exist. */
async function someIds(c: ContractCase): Promise<number[]> {
  if (c.seed) await c.seed({ t });
  const names = [uniq('ro'), uniq('ro'), uniq('ro')];
  expect(
    (
      await t.post(
        '/api/extras/tags/',
        names.map((n) => ({ name: n, slug: n })),
      )
    ).statusCode,
  ).toBe(201);
  const body = await getJson(t, `${c.path}?limit=3&ordering=id`);
  expect(body.count as number).toBeGreaterThanOrEqual(3);
  return idsOf(body) as number[];
}

describe.each(READ_ONLY)('$model (read-only)', (c) => {
  it('lists in a count/next/previous/results envelope paginated by limit and offset', async () => {
    const ids = await someIds(c);
    const scope = ids.map((id) => `id=${id}`).join('&');
    const body = await getJson(t, `${c.path}?${scope}&ordering=id&limit=1&offset=1`);
    expect(Object.keys(body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.count).toBe(3);
    expect(idsOf(body)).toEqual([ids[1]]);
    const next = new URL(body.next as string);
    expect(body.next).toMatch(new RegExp(`^${BASE}${c.path}\\?`));
    expect([next.searchParams.get('limit'), next.searchParams.get('offset')]).toEqual(['1', '2']);
    expect(new URL(body.previous as string).searchParams.get('limit')).toBe('1');
  });

  it(`returns exactly id, url, display, ${c.briefFields.join(', ')} with ?brief=1 on list and detail`, async () => {
    const [id] = await someIds(c);
    const expected = ['id', 'url', 'display', ...c.briefFields].sort();
    const list = await getJson(t, `${c.path}?brief=1&id=${id}`);
    expect(Object.keys((list.results as Json[])[0]!).sort()).toEqual(expected);
    const detail = await getJson(t, `${detailPath(c, id)}?brief=1`);
    expect(Object.keys(detail).sort()).toEqual(expected);
  });

  it('answers a detail GET with the object the list shows', async () => {
    const [id] = await someIds(c);
    const detail = await getJson(t, detailPath(c, id));
    expect(detail.url).toBe(`${BASE}${detailPath(c, id)}`);
    expect(detail.display).toEqual(expect.any(String));
    expect((await getJson(t, `${c.path}?id=${id}`)).results).toEqual([detail]);
  });

  it('answers 404 {"detail":"Not found."} for a missing id', async () => {
    const res = await t.get(detailPath(c, MISSING_ID));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers HEAD with 200 and no body', async () => {
    const [id] = await someIds(c);
    for (const url of [c.path, detailPath(c, id)]) {
      const res = await t.request('HEAD', url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    }
  });

  it('answers OPTIONS without actions, even for a superuser', async () => {
    for (const token of [undefined, null]) {
      const res = await t.request('OPTIONS', c.path, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('actions');
      expect(res.json().name).toEqual(expect.any(String));
    }
  });

  it('answers 405 to POST, PUT, PATCH and DELETE, with Allow: GET, HEAD, OPTIONS', async () => {
    const [id] = await someIds(c);
    const before = (await getJson(t, `${c.path}?limit=1`)).count;
    const attempts = [
      ['POST', c.path, {}],
      ['PUT', c.path, [{ id }]],
      ['PATCH', c.path, [{ id }]],
      ['DELETE', c.path, [{ id }]],
      ['PUT', detailPath(c, id), {}],
      ['PATCH', detailPath(c, id), {}],
      ['DELETE', detailPath(c, id), undefined],
    ] as const;
    for (const [method, url, body] of attempts) {
      const res = await t.request(method, url, { body });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
      expect(res.headers.allow).toBe(READ_ALLOW);
    }
    expect((await t.get(detailPath(c, id))).statusCode).toBe(200);
    expect((await getJson(t, `${c.path}?limit=1`)).count).toBe(before);
    expect((await t.get(c.path)).headers.allow).toBe(READ_ALLOW);
  });
});
