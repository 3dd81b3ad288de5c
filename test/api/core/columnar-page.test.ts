/**
 * A page of 200 rows or more is read as columns (db/columnar.ts, crud/read.ts readAndRender): one
 * row of arrays, split back here. It must show exactly what the same rows read as rows show -
 * every column type (timestamps, inet with and without its mask, decimals, booleans, JSON custom
 * fields, nulls) and text PostgreSQL quotes in an array (spaces, commas, braces, quotes,
 * backslashes, the word NULL, empty strings) - in the page's order, with the list's count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, make, makeDevice, type Json } from '../../factories/index.js';

let t: TestApp;
let tag: string;
const AWKWARD = ['NULL', '', 'a b', 'c,d', '{e}', 'f"g', 'h\\i', 'ü€😀 j', 'null', ' lead', 'k\nl\tm'];

beforeAll(async () => {
  t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
  tag = uniq('col');
  await make(t, '/api/extras/custom-fields/', {
    content_types: ['dcim.site', 'ipam.ipaddress'],
    type: 'json',
    name: tag.replace(/\W/g, '_'),
  });
  const cf = tag.replace(/\W/g, '_');
  for (const [i, text] of AWKWARD.entries()) {
    await make(t, '/api/dcim/sites/', {
      name: `${tag} ${text} ${i}`,
      slug: `${tag}-${i}`,
      description: text,
      comments: text,
      facility: text,
      latitude: i % 2 ? '12.345678' : null,
      longitude: i % 3 ? '-98.7654' : null,
      time_zone: i % 2 ? 'Europe/Paris' : null,
      custom_fields: { [cf]: i % 2 ? { text, list: [text, i, null], nested: { ok: true } } : null },
    });
  }
  const device = await makeDevice(t, { name: `${tag}-dev` });
  for (const [i, text] of AWKWARD.entries()) {
    const iface = await make(t, '/api/dcim/interfaces/', {
      device: device.id,
      name: `${tag}-eth${i}`,
      type: '1000base-t',
      description: text,
      enabled: i % 2 === 0,
      mtu: i % 3 ? 1500 + i : null,
      mac_address: i % 2 ? `00:11:22:33:44:${String(10 + i)}` : null,
    });
    await make(t, '/api/ipam/ip-addresses/', {
      address: i % 2 ? `10.212.${i}.1/24` : `2001:db8:212::${i}/128`,
      dns_name: `h${i}.example.net`,
      description: text,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: iface.id,
      custom_fields: { [cf]: i % 3 ? [text] : null },
    });
    await make(t, '/api/ipam/ip-addresses/', { address: `10.212.${i}.2/32`, description: text });
  }
});
afterAll(async () => t.close());

/** the same list read in pages of 2 (rows) and in one page of 1,000 (columns) */
async function bothWays(query: string): Promise<{ rows: Json[]; columns: Json[]; count: number }> {
  const rows: Json[] = [];
  let count = -1;
  for (let offset = 0; ; offset += 2) {
    const res = await t.get(`${query}&limit=2&offset=${offset}`);
    expect(res.statusCode, res.body).toBe(200);
    rows.push(...res.json().results);
    count = res.json().count;
    if (!res.json().next) break;
  }
  const res = await t.get(`${query}&limit=1000`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().count).toBe(count);
  return { rows, columns: res.json().results, count };
}

describe('a large page', () => {
  it('shows what the same rows read one by one show, in every form', async () => {
    const queries = [
      `/api/dcim/sites/?slug__isw=${tag}`,
      `/api/dcim/sites/?slug__isw=${tag}&ordering=-description`,
      `/api/dcim/sites/?slug__isw=${tag}&brief=1`,
      `/api/dcim/interfaces/?name__isw=${tag}`,
      `/api/dcim/interfaces/?name__isw=${tag}&ordering=description`,
      `/api/ipam/ip-addresses/?parent=10.212.0.0/16`,
      `/api/ipam/ip-addresses/?q=10.212.`,
      `/api/ipam/ip-addresses/?dns_name__isw=h&ordering=-address`,
      `/api/dcim/devices/?name=${tag}-dev`,
      `/api/extras/object-changes/?request_id=00000000-0000-0000-0000-000000000000`,
    ];
    for (const query of queries) {
      const { rows, columns, count } = await bothWays(query);
      expect(columns, query).toEqual(rows);
      expect(columns.length, query).toBe(count);
    }
    // the awkward texts came back as stored (trimmed on the way in, as NetBox does)
    const { columns } = await bothWays(`/api/dcim/sites/?slug__isw=${tag}&ordering=slug`);
    expect(columns.map((s) => s.description).sort()).toEqual(AWKWARD.map((a) => a.trim()).sort());
    expect(columns.filter((s) => s.custom_fields[tag.replace(/\W/g, '_')] !== null)).toHaveLength(5);
  });

  it('is read as columns, one statement of arrays, and a small page as rows', async () => {
    const pages: string[] = [];
    const stop = t.db.observeStatements((_ms, _error, query) => void pages.push(query.sql));
    try {
      expect((await t.get(`/api/dcim/sites/?slug__isw=${tag}&limit=200`)).statusCode).toBe(200);
      expect(pages.filter((s) => s.includes('array_agg(p.'))).toHaveLength(1);
      pages.length = 0;
      expect((await t.get(`/api/dcim/sites/?slug__isw=${tag}&limit=199`)).statusCode).toBe(200);
      expect(pages.filter((s) => s.includes('array_agg(p.'))).toHaveLength(0);
    } finally {
      stop();
    }
  });

  it('past the end is empty, with the count', async () => {
    const res = await t.get(`/api/dcim/sites/?slug__isw=${tag}&limit=500&offset=500`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: AWKWARD.length, results: [] });
  });
});
