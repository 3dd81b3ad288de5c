/**
 * Case-insensitive matches of values without letters (lookups.ts likeFor): such a value is compared
 * with LIKE instead of ILIKE, which must find exactly the rows ILIKE finds, around letters of
 * either case, with wildcards kept literal; a value with a letter, ASCII or not, still folds case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
const p = uniq('csl');
const names = (res: { statusCode: number; json(): { results: Array<{ name: string }> } }) => {
  expect(res.statusCode).toBe(200);
  return res
    .json()
    .results.map((r) => r.name)
    .sort();
};
const sites = (q: string) => t.get(`/api/dcim/sites/?name__isw=${p}-&${q}`).then(names);

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.post('/api/dcim/sites/', [
    { name: `${p}-1`, slug: `${p}-1`, facility: 'DC-10.1.A' },
    { name: `${p}-2`, slug: `${p}-2`, facility: 'dc-10.1.a' },
    { name: `${p}-3`, slug: `${p}-3`, facility: 'Ünit 7' },
    { name: `${p}-4`, slug: `${p}-4`, facility: 'ünit 8' },
    { name: `${p}-5`, slug: `${p}-5`, facility: 'x_10%1' },
    { name: `${p}-6`, slug: `${p}-6`, facility: '10.1.' },
  ]);
  expect(res.statusCode).toBe(201);
});
afterAll(async () => t.close());

describe('case-insensitive lookups with values without letters', () => {
  it('find the same rows around letters of either case', async () => {
    expect(await sites('facility__ic=10.1.')).toEqual([`${p}-1`, `${p}-2`, `${p}-6`]);
    expect(await sites('facility__nic=10.1.')).toEqual([`${p}-3`, `${p}-4`, `${p}-5`]);
    expect(await sites('facility__isw=10.1')).toEqual([`${p}-6`]);
    expect(await sites('facility__iew=.1.')).toEqual([`${p}-6`]);
    expect(await sites('facility__ie=10.1.')).toEqual([`${p}-6`]);
    expect(await sites('facility__nie=10.1.')).toHaveLength(5);
  });

  it('keep wildcards literal', async () => {
    expect(await sites('facility__ic=_10%251')).toEqual([`${p}-5`]);
    expect(await sites('facility__ic=0_1')).toEqual([]);
    expect(await sites('facility__ic=%25')).toEqual([`${p}-5`]);
  });

  it('still fold the case of values with letters, ASCII or not', async () => {
    expect(await sites('facility__ic=-10.1.A')).toEqual([`${p}-1`, `${p}-2`]);
    expect(await sites('facility__ie=DC-10.1.a')).toEqual([`${p}-1`, `${p}-2`]);
    expect(await sites(`facility__isw=${encodeURIComponent('ÜNIT')}`)).toEqual([`${p}-3`, `${p}-4`]);
    expect(await sites(`facility__ic=${encodeURIComponent('ünit 7')}`)).toEqual([`${p}-3`]);
  });

  it('apply to q on addresses: address prefix and DNS name', async () => {
    const created = await t.post('/api/ipam/ip-addresses/', [
      { address: '10.231.7.1/24', dns_name: `${p}-a.example.net` },
      { address: '192.0.2.1/24', dns_name: `HOST-10.231.7.${p}.example.net` },
      { address: '192.0.2.2/24', dns_name: `host-10.231.7.${p}.example.net` },
      { address: '192.0.2.3/24', dns_name: `${p}-other.example.net` },
    ]);
    expect(created.statusCode).toBe(201);
    const ids = created.json().map((a: { id: number }) => a.id);
    const found = async (q: string) => {
      const res = await t.get(`/api/ipam/ip-addresses/?limit=1000&q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      return res
        .json()
        .results.map((a: { id: number }) => a.id)
        .filter((id: number) => ids.includes(id))
        .sort((a: number, b: number) => a - b);
    };
    expect(await found('10.231.7.')).toEqual(ids.slice(0, 3));
    expect(await found('HOST-10.231')).toEqual(ids.slice(1, 3));
    expect(await found(`.${p.toUpperCase()}.`)).toEqual(ids.slice(1, 3));
  });
});
