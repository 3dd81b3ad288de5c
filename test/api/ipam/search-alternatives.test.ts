/**
 * The address search (`q=`) of a dotted IPv4 start reads each alternative apart for a page: the
 * DNS names, the descriptions, and the address ranges the start can lie in (network-filters.ts
 * networkSearch, query/alternatives.ts, crud/read.ts narrowToAlternatives). It must show exactly
 * what the plain OR shows - masks shorter than the range, partial octets, matches by name or
 * description anywhere in the order, other filters beside it - in the order asked, page by page.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, make, type Json } from '../../factories/index.js';

let t: TestApp;
let tenant: Json;
const ADDRESSES: Array<[string, string, string]> = [
  // address, dns_name, description
  ['10.6.255.255/32', 'h.10.7.x.example.net', ''],
  ['10.7.0.0/16', '', ''],
  ['10.7.0.1/24', 'a.example.net', ''],
  ['10.7.0.1/8', '', ''],
  ['10.7.0.10/1', '', ''],
  ['10.7.0.12/25', '', 'see 10.7.0.1'],
  ['10.7.1.1/24', '', ''],
  ['10.7.255.255/32', '', ''],
  ['10.8.0.1/32', '', 'moved from 10.7.'],
  ['10.70.0.1/24', '', ''],
  ['10.77.1.1/24', '', ''],
  ['10.79.255.1/9', '', ''],
  ['10.80.0.1/24', '', ''],
  ['11.7.0.1/24', '', ''],
  ['110.7.0.1/24', '', ''],
  ['192.168.1.2/32', '', ''],
  ['192.168.1.20/24', 'db.10.7.example.net', ''],
  ['192.168.1.200/8', '', ''],
  ['2001:db8::10.7.0.1/128', '', ''],
  ['2001:db8:7::1/64', 'v6.10.7.example.net', ''],
  ['10.250.0.1/24', '', ''],
];
const SEARCHES = [
  '10.7.',
  '10.7',
  '10.77.',
  '10.7.0.1',
  '10.7.0.1/2',
  '10.70',
  '10.7.0',
  '192.168.1.2',
  '10.25',
  '10.7.255.',
  '10',
  '2001:db8',
  'example',
  'H.10.7.',
  'see 10',
];

beforeAll(async () => {
  t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
  tenant = await make(t, '/api/tenancy/tenants/', { name: uniq('search'), slug: uniq('search') });
  // and the same addresses outside the tenant: the other filter must hold in every alternative
  const other = await make(t, '/api/tenancy/tenants/', { name: uniq('other'), slug: uniq('other') });
  for (const owner of [tenant, other]) {
    const res = await t.post(
      '/api/ipam/ip-addresses/',
      ADDRESSES.map(([address, dns_name, description]) => ({ address, dns_name, description, tenant: owner.id })),
    );
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(async () => t.close());

/** the plain OR of NetBox's address search, in the list's order */
async function plainSearch(q: string, order: 'address' | '-address' | 'dns_name'): Promise<string[]> {
  const esc = q.replace(/[\\%_]/g, '\\$&');
  const starts = /[a-z]/i.test(q) ? sql`text(i.address) ilike ${`${esc}%`}` : sql`text(i.address) like ${`${esc}%`}`;
  const by =
    order === 'address'
      ? sql`i.address, i.id`
      : order === '-address'
        ? sql`i.address desc, i.id desc`
        : sql`i.dns_name, i.id`;
  const rows = await sql<{
    a: string;
  }>`select i.address::text as a from ipam_ipaddress i where i.tenant_id = ${tenant.id}
    and (i.dns_name ilike ${`%${esc}%`} or i.description ilike ${`%${esc}%`} or ${starts}) order by ${by}`.execute(
    t.db.kysely,
  );
  return rows.rows.map((r) => r.a);
}

async function walk(query: string, limit: number): Promise<{ addresses: string[]; count: number }> {
  const addresses: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await t.get(`/api/ipam/ip-addresses/?tenant_id=${tenant.id}&${query}&limit=${limit}&offset=${offset}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    addresses.push(...(body.results as Json[]).map((r) => r.address as string));
    if (!body.next) return { addresses, count: body.count };
  }
}

describe('the address search', () => {
  it('shows what the plain search shows, in every order and page by page', async () => {
    for (const q of SEARCHES) {
      const query = `q=${encodeURIComponent(q)}`;
      for (const order of ['address', '-address', 'dns_name'] as const) {
        const expected = await plainSearch(q, order);
        for (const limit of [1000, 3]) {
          const { addresses, count } = await walk(`${query}&ordering=${order}`, limit);
          expect(addresses, `${q} ${order} ${limit}`).toEqual(expected);
          expect(count, q).toBe(expected.length);
        }
      }
    }
    // the data holds a match of each kind for the dotted start: a name and a description late in the order, a shorter mask
    expect(await plainSearch('10.7.', 'address')).toEqual(
      expect.arrayContaining(['10.7.0.10/1', '10.6.255.255/32', '10.8.0.1/32', '192.168.1.20/24', '2001:db8:7::1/64']),
    );
  });

  it('reads a dotted start as alternatives apart, and anything else as one OR', async () => {
    const pages: string[] = [];
    const stop = t.db.observeStatements((_ms, _error, query) => {
      if (/from "ipam_ipaddress" as t/.test(query.sql)) pages.push(query.sql);
    });
    try {
      const apart = (_q: string) => pages.filter((s) => s.includes(' union ')).length;
      for (const [q, networks] of [
        ['10.7.', 1],
        ['10.7', 2],
        ['192.168.1.2', 3],
      ] as const) {
        pages.length = 0;
        expect((await t.get(`/api/ipam/ip-addresses/?q=${q}&limit=5`)).statusCode).toBe(200);
        expect(apart(q), q).toBe(1);
        // one branch per text column (dns_name, description), two per network (masks as long as its own or longer, shorter)
        const page = pages.find((s) => s.includes(' union '))!;
        expect(page.split('(select t.id from').length - 1, q).toBe(2 + 2 * networks);
      }
      for (const q of ['10', 'example', '2001:db8', '1.']) {
        pages.length = 0;
        expect((await t.get(`/api/ipam/ip-addresses/?q=${encodeURIComponent(q)}&limit=5`)).statusCode).toBe(200);
        expect(pages.length, q).toBeGreaterThan(0);
        expect(apart(q), q).toBe(0);
      }
      // no page size (limit=0 with no maximum is every row) or a page too deep: the OR as it is
      pages.length = 0;
      expect((await t.get('/api/ipam/ip-addresses/?q=10.7.&limit=5&offset=20000')).statusCode).toBe(200);
      expect(apart('deep')).toBe(0);
    } finally {
      stop();
    }
  });
});
