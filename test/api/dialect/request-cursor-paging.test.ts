/**
 * Cursor paging `?start=<id>` (NetBox 4.6, #21363; query/pagination.ts parseCursor, crud/read.ts
 * listFromCursor), in the 4.4 dialect: the objects whose id is `start` or more, in id order, with
 * the list's filters; `count` and `previous` null; `next` carries the next `start` and the same
 * limit while a page is full; `start` with `offset` or `ordering`, or not a whole number, is a 400.
 * The 3.4 dialect ignores `start`, as NetBox 3.4 does (its pages carry a count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniq } from '../../factories/index.js';
import { makeContractApp } from '../../contract/harness.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let group: string;
let ids: number[];
const V44 = { accept: 'application/json; version=4.4' };
const get44 = (url: string) => t.request('GET', url, { headers: V44 });

beforeAll(async () => {
  // every answer is checked against the OpenAPI document of its dialect (the contract suite's app)
  t = await makeContractApp();
  group = uniq('cursor');
  // names in the reverse of the id order, so the usual order (by name) and the cursor's differ
  const res = await t.post(
    '/api/tenancy/tenants/',
    [5, 4, 3, 2, 1].map((n) => ({ name: `${group}-${n}`, slug: `${group}-${n}`, description: group })),
  );
  expect(res.statusCode, res.body).toBe(201);
  ids = res.json().map((o: { id: number }) => o.id);
});
afterAll(async () => t.close());

describe('?start= in the 4.4 dialect', () => {
  it('walks the list by id, page by page, following next', async () => {
    const first = await get44(`/api/tenancy/tenants/?description=${group}&start=0&limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    expect(page.count).toBeNull();
    expect(page.previous).toBeNull();
    expect(page.results.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 2));
    const next = new URL(page.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      description: group,
      limit: '2',
      start: String(ids[1]! + 1),
    });
    const seen: number[] = [];
    let url: string | null = `/api/tenancy/tenants/?description=${group}&start=0&limit=2`;
    while (url) {
      const body: { results: Array<{ id: number }>; next: string | null } = (await get44(url)).json();
      seen.push(...body.results.map((r) => r.id));
      url = body.next ? new URL(body.next).pathname + new URL(body.next).search : null;
    }
    expect(seen).toEqual(ids);
  });

  it('starts at the id given, inclusive, and leaves next null on a short page', async () => {
    const res = await get44(`/api/tenancy/tenants/?description=${group}&start=${ids[3]}&limit=5`);
    expect(res.json().results.map((r: { id: number }) => r.id)).toEqual(ids.slice(3));
    expect(res.json().next).toBeNull();
    // NetBox's rule: a full page has a next, even when nothing follows
    const full = await get44(`/api/tenancy/tenants/?description=${group}&start=${ids[3]}&limit=2`);
    expect(full.json().next).not.toBeNull();
    const after = await get44(new URL(full.json().next).pathname + new URL(full.json().next).search);
    expect(after.json()).toMatchObject({ count: null, next: null, previous: null, results: [] });
  });

  it('takes brief and large pages (read as columns)', async () => {
    const res = await get44(`/api/tenancy/tenants/?description=${group}&start=0&limit=500&brief=1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { id: number }) => r.id)).toEqual(ids);
    expect(Object.keys(res.json().results[0])).toEqual(['id', 'url', 'display', 'name', 'slug', 'description']);
  });

  it('refuses offset, ordering and a start that is not a whole number', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['start=1&offset=0', { offset: ["'start' and 'offset' are mutually exclusive."] }],
      [
        'start=1&ordering=name',
        { ordering: ['Ordering cannot be specified in conjunction with cursor-based pagination.'] },
      ],
      ['start=-1', { start: ["Invalid 'start' parameter: must be a non-negative integer."] }],
      ['start=abc', { start: ["Invalid 'start' parameter: must be a non-negative integer."] }],
      ['start=', { start: ["Invalid 'start' parameter: must be a non-negative integer."] }],
    ];
    for (const [query, body] of cases) {
      const res = await get44(`/api/tenancy/tenants/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual(body);
    }
  });
});

describe('?start= in the 3.4 dialect', () => {
  it('is ignored: an offset page with its count', async () => {
    const res = await t.get(`/api/tenancy/tenants/?description=${group}&start=${ids[3]}&limit=2`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(5);
    // the usual order, by name: the last created first
    expect(res.json().results.map((r: { id: number }) => r.id)).toEqual([ids[4], ids[3]]);
  });
});
