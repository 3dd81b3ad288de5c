import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

const p = uniq('pg');
const seed = (t: TestApp, n: number) =>
  t.post(
    '/api/tenancy/tenants/',
    Array.from({ length: n }, (_, i) => ({ name: `${p}-${String(i).padStart(2, '0')}`, slug: `${p}-${i}` })),
  );

describe('with a page size cap (PAGINATE_COUNT=5, MAX_PAGE_SIZE=8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ PAGINATE_COUNT: '5', MAX_PAGE_SIZE: '8' });
    expect((await seed(t, 12)).statusCode).toBe(201);
  });
  afterAll(async () => t.close());

  it('uses PAGINATE_COUNT by default and links to the next page', async () => {
    const body = (await t.get('/api/tenancy/tenants/')).json();
    expect(body.count).toBe(12);
    expect(body.results).toHaveLength(5);
    expect(body.previous).toBeNull();
    expect(body.next).toBe('http://localhost:80/api/tenancy/tenants/?limit=5&offset=5');
  });

  it('caps a larger limit at MAX_PAGE_SIZE', async () => {
    const body = (await t.get('/api/tenancy/tenants/?limit=100')).json();
    expect(body.results).toHaveLength(8);
    expect(body.next).toBe('http://localhost:80/api/tenancy/tenants/?limit=8&offset=8');
  });

  it('returns one capped page for limit=0', async () => {
    const body = (await t.get('/api/tenancy/tenants/?limit=0')).json();
    expect(body.results).toHaveLength(8);
    expect(body.count).toBe(12);
  });

  it('keeps other parameters, sorted, in the links and drops offset=0 from previous', async () => {
    const body = (await t.get(`/api/tenancy/tenants/?q=${p}&offset=5&limit=5&ordering=name`)).json();
    expect(body.next).toBe(`http://localhost:80/api/tenancy/tenants/?limit=5&offset=10&ordering=name&q=${p}`);
    expect(body.previous).toBe(`http://localhost:80/api/tenancy/tenants/?limit=5&ordering=name&q=${p}`);
    const last = (await t.get(`/api/tenancy/tenants/?offset=10&limit=5`)).json();
    expect(last.next).toBeNull();
    expect(last.results).toHaveLength(2);
  });

  it('walks every object exactly once by following next', async () => {
    const seen: number[] = [];
    let url: string | null = '/api/tenancy/tenants/?limit=5';
    while (url) {
      const body: { next: string | null; results: Array<{ id: number }> } = (
        await t.get(url.replace('http://localhost:80', ''))
      ).json();
      seen.push(...body.results.map((r) => r.id));
      url = body.next;
    }
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
  });

  // NetBox 3.4 (DRF) reads a bad limit or offset as the default; issue 9 asks for a 400 naming it
  it('answers a limit or offset that is not a non-negative integer with 400 naming it', async () => {
    const WHOLE = ['Enter a whole number.'];
    const cases: Array<[string, Record<string, string[]>]> = [
      ['limit=abc', { limit: WHOLE }],
      ['limit=1.5', { limit: WHOLE }],
      ['limit=1e3', { limit: WHOLE }],
      ['limit=99999999999999999999', { limit: WHOLE }],
      ['limit=5&limit=x', { limit: WHOLE }],
      ['offset=-4', { offset: ['Ensure this value is greater than or equal to 0.'] }],
      ['offset=0x10', { offset: WHOLE }],
    ];
    for (const [query, body] of cases) {
      const res = await t.get(`/api/tenancy/tenants/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual(body);
    }
    // an empty value is no value (DRF reads it as absent)
    expect((await t.get('/api/tenancy/tenants/?limit=&offset=')).json().results).toHaveLength(5);
  });

  it('answers an offset past the end with an empty page', async () => {
    const past = (await t.get('/api/tenancy/tenants/?offset=500')).json();
    expect(past.count).toBe(12);
    expect(past.results).toEqual([]);
  });
});

describe('without a maximum (MAX_PAGE_SIZE=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ PAGINATE_COUNT: '5', MAX_PAGE_SIZE: '0' });
    expect((await seed(t, 12)).statusCode).toBe(201);
  });
  afterAll(async () => t.close());

  it('returns everything for limit=0 with no links', async () => {
    const body = (await t.get('/api/tenancy/tenants/?limit=0')).json();
    expect(body.results).toHaveLength(12);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
  });

  it('honours any large limit', async () => {
    expect((await t.get('/api/tenancy/tenants/?limit=11')).json().results).toHaveLength(11);
  });
});
