/**
 * `parent` of addresses (network-filters.ts hostWithinFilter) bounds the address itself so that
 * the page is an index range; it must select exactly what the host test alone selects - addresses
 * whose mask is shorter than the network's, /1 and the network's own address included - in the
 * same order, page after page, on both families.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { Json } from '../../factories/index.js';

let t: TestApp;
const ADDRESSES = [
  '10.87.255.255/32',
  '10.88.0.0/16',
  '10.88.0.1/24',
  '10.88.1.1/24',
  '10.88.1.2/8',
  '10.88.1.4/1',
  '10.88.1.5/12',
  '10.88.1.6/23',
  '10.88.1.7/25',
  '10.88.1.8/32',
  '10.88.255.255/32',
  '10.88.255.254/15',
  '10.89.0.0/32',
  '10.89.0.1/8',
  '11.0.0.1/8',
  '2001:db8:88::1/64',
  '2001:db8:88::2/32',
  '2001:db8:88:ffff::1/128',
  '2001:db8:87::1/48',
  '2001:db8:88::3/1',
];
const PARENTS = [
  '10.88.0.0/16',
  '10.88.1.0/24',
  '10.88.1.2/32',
  '10.0.0.0/8',
  '10.88.0.0/15',
  '0.0.0.0/0',
  '2001:db8:88::/48',
  '2001:db8::/32',
  '::/0',
];

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.post(
    '/api/ipam/ip-addresses/',
    ADDRESSES.map((address) => ({ address, description: 'parent-range' })),
  );
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => t.close());

/** the host test alone, in the list's order: what `parent` selected before the range */
async function hostWithin(parent: string, descending = false): Promise<string[]> {
  // i.address: a bare `address` would sort by the text the select list names so
  const order = descending ? sql`i.address desc, i.id desc` : sql`i.address, i.id`;
  const rows = await sql<{ address: string }>`select i.address::text as address from ipam_ipaddress i
    where i.description = 'parent-range' and host(i.address)::inet <<= ${parent}::cidr order by ${order}`.execute(
    t.db.kysely,
  );
  return rows.rows.map((r) => r.address);
}

async function walk(query: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await t.get(
      `/api/ipam/ip-addresses/?description=parent-range&${query}&limit=${limit}&offset=${offset}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    out.push(...(body.results as Json[]).map((r) => r.address as string));
    if (!body.next) return out;
  }
}

describe('addresses within a parent network', () => {
  it('are those whose host is in it, whatever their own mask, in address order and page by page', async () => {
    for (const parent of PARENTS) {
      const expected = await hostWithin(parent);
      expect(expected.length, parent).toBeGreaterThan(0);
      expect(await walk(`parent=${parent}`, 1000), parent).toEqual(expected);
      expect(await walk(`parent=${parent}`, 2), parent).toEqual(expected);
      expect(await walk(`parent=${parent}&ordering=-address`, 3), parent).toEqual(await hostWithin(parent, true));
      expect(
        (await t.get(`/api/ipam/ip-addresses/?description=parent-range&parent=${parent}&limit=1`)).json().count,
        parent,
      ).toBe(expected.length);
    }
  });

  it('include an address with a shorter mask than the network, and leave out its neighbours', async () => {
    expect(await walk('parent=10.88.1.0/24', 50)).toEqual([
      '10.88.1.4/1',
      '10.88.1.2/8',
      '10.88.1.5/12',
      '10.88.1.6/23',
      '10.88.1.1/24',
      '10.88.1.7/25',
      '10.88.1.8/32',
    ]);
    expect(await walk('parent=10.88.0.0/16', 50)).not.toContain('10.87.255.255/32');
    expect(await walk('parent=10.88.0.0/16', 50)).not.toContain('10.89.0.0/32');
  });

  it("are read for a page as each network's two ranges apart, the page bounded by their ids alone", async () => {
    const pages: string[] = [];
    const stop = t.db.observeStatements((_ms, _error, query) => {
      if (/from "ipam_ipaddress" as t/.test(query.sql)) pages.push(query.sql);
    });
    try {
      for (const [query, networks] of [
        ['parent=10.88.0.0/16', 1],
        ['parent=10.88.1.2/32&parent=2001:db8:88::/48', 2],
      ] as const) {
        pages.length = 0;
        expect((await t.get(`/api/ipam/ip-addresses/?${query}&limit=5`)).statusCode).toBe(200);
        const page = pages.find((s) => s.includes(' union '));
        expect(page, query).toBeDefined();
        // masks as long as the network's or longer (bounds known when planned), and shorter ones
        expect(page!.split('(select t.id from').length - 1, query).toBe(2 * networks);
        // the lower bound PostgreSQL cannot estimate stays inside the ranges: were it also the
        // page's own condition, the page could read the whole network through it
        const ids = page!.indexOf('t.id = any(array(');
        // the page's own condition: what follows its table (the total before it counts the condition as it is)
        const outer = page!.slice(page!.lastIndexOf('from "ipam_ipaddress" as t', ids), ids);
        expect(outer, query).not.toContain('generate_series');
      }
      pages.length = 0;
      expect((await t.get('/api/ipam/ip-addresses/?parent=10.88.0.0/16&limit=5&offset=20000')).statusCode).toBe(200);
      expect(
        pages.filter((s) => s.includes(' union ')),
        'a page too deep reads the condition as it is',
      ).toEqual([]);
    } finally {
      stop();
    }
  });

  it('are every network given, each bounded on its own', async () => {
    const both = await walk('parent=10.88.1.2/32&parent=2001:db8:88::/48', 50);
    expect(both).toEqual([
      '10.88.1.2/8',
      '2001:db8:88::3/1',
      '2001:db8:88::2/32',
      '2001:db8:88::1/64',
      '2001:db8:88:ffff::1/128',
    ]);
  });
});
