/**
 * A list in its default order reads its page by walking an index that holds the whole order, the
 * id that breaks ties included (core/query/ordering.ts), so no page sorts its rows: a sort reads
 * every row of the list (or, with an index missing only the id, re-sorts runs of them) before the
 * first one is sent. Checked on each list's own statement, as the service sends it, with sorting
 * priced out of the planner's choices: if no index gives the order, the plan still sorts.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, make, makeDevice } from '../../factories/index.js';

let t: TestApp;
let deviceId: number;

beforeAll(async () => {
  t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
  const tag = uniq('ord');
  const vrf = await make(t, '/api/ipam/vrfs/', { name: `${tag}-vrf` });
  for (let i = 0; i < 4; i++) {
    // the same prefix in the global table and in a VRF, and twice in the global table: the id breaks the tie
    await make(t, '/api/ipam/prefixes/', { prefix: `10.213.${i}.0/24` });
    await make(t, '/api/ipam/prefixes/', { prefix: `10.213.${i}.0/24` });
    await make(t, '/api/ipam/prefixes/', { prefix: `10.213.${i}.0/24`, vrf: vrf.id });
  }
  const device = await makeDevice(t, { name: `${tag}-dev` });
  deviceId = device.id as number;
  await make(t, '/api/dcim/interfaces/', { device: deviceId, name: 'eth1', type: '1000base-t' });
});
afterAll(async () => t.close());

/** the statements one GET sends */
async function statementsOf(url: string): Promise<CompiledQuery[]> {
  const seen: CompiledQuery[] = [];
  const stop = t.db.observeStatements((_ms, _err, q) => seen.push(q));
  try {
    const res = await t.get(url);
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    stop();
  }
  return seen;
}

const SETTINGS = ['enable_sort', 'enable_incremental_sort', 'enable_seqscan'];

/** the plan of `q` with sorts and whole-table scans made the planner's last resort */
async function planWithoutSorts(q: CompiledQuery): Promise<string> {
  return t.db.kysely.connection().execute(async (c) => {
    for (const setting of SETTINGS) await c.executeQuery(CompiledQuery.raw(`set ${setting} = off`));
    try {
      const res = await c.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`explain (costs off) ${q.sql}`, [...q.parameters]),
      );
      return res.rows.map((r) => Object.values(r)[0]).join('\n');
    } finally {
      for (const setting of SETTINGS) await c.executeQuery(CompiledQuery.raw(`reset ${setting}`));
    }
  });
}

describe('a list in its default order', () => {
  const lists: Array<[url: () => string, table: string]> = [
    [() => '/api/ipam/prefixes/?brief=1&limit=1000', 'ipam_prefix'],
    [() => '/api/ipam/prefixes/?limit=50', 'ipam_prefix'],
    [() => '/api/dcim/devices/?limit=50', 'dcim_device'],
    [() => `/api/dcim/interfaces/?device_id=${deviceId}`, 'dcim_interface'],
    [() => '/api/dcim/sites/?limit=50', 'dcim_site'],
    [() => '/api/dcim/racks/?limit=50', 'dcim_rack'],
  ];
  for (const [url, table] of lists) {
    it(`walks an index of ${table}, sorting nothing`, async () => {
      const page = (await statementsOf(url())).filter((q) => q.sql.includes(`from "${table}" as t`));
      expect(page.length, `the page statement of ${url()}`).toBe(1);
      const plan = await planWithoutSorts(page[0]!);
      // the page of a list is its one ordered scan of the table
      expect(plan, plan).toMatch(new RegExp(`Index (Only )?Scan using \\w+ on ${table} t(_\\d+)?\\b`));
      expect(plan, plan).not.toMatch(/Sort Key: t\./);
    });
  }

  it('orders prefixes by VRF, prefix and id', async () => {
    const res = await t.get('/api/ipam/prefixes/?q=10.213.&limit=1000');
    const rows = res.json().results as Array<{ id: number; prefix: string; vrf: { id: number } | null }>;
    expect(rows.length).toBe(12);
    const key = (r: (typeof rows)[number]) => [r.vrf?.id ?? Infinity, r.prefix, r.id] as const;
    const sorted = [...rows].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || x[2] - y[2];
    });
    expect(rows.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
  });
});
