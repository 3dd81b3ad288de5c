/**
 * A tree row keeps its depth (`_depth`, migration 0153): set from its parent when written, moved
 * down the tree with its children when a node moves or its parent goes, and shown as it is in the
 * model's pages and in nested objects (load-related.ts depthsSql).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, type Json, makeRegion } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const region = (name: string, parent: Json | null) =>
  makeRegion(t, { name, slug: name, ...(parent ? { parent: parent.id } : {}) });

/** each region's depth as its detail shows it, by name */
async function depths(...regions: Json[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const r of regions) out[r.name] = (await t.get(`/api/dcim/regions/${r.id}/?_=${uniq('d')}`)).json()._depth;
  return out;
}

/** the tree models of the service's own registry */
const treeTables = () =>
  t.app.inventory.registry
    .all()
    .filter((m) => m.treeParent)
    .map((m) => m.table)
    .sort();

/** the invariant: every row's depth is the number of its ancestors */
async function assertDepthsTrue(table: string): Promise<void> {
  const wrong = await sql<{ id: number }>`with recursive d(id, depth) as (
      select id, 0 from ${sql.table(table)} where parent_id is null
      union all select c.id, d.depth + 1 from ${sql.table(table)} c join d on c.parent_id = d.id)
    select x.id from ${sql.table(table)} x join d on d.id = x.id where x._depth <> d.depth`.execute(t.db.kysely);
  expect(wrong.rows, table).toEqual([]);
}

describe('tree depth kept in the row', () => {
  it('every tree model has the column and both triggers', async () => {
    const tables = treeTables();
    expect(tables.length).toBeGreaterThanOrEqual(8);
    for (const table of tables) {
      const column = await sql<{ n: number }>`select count(*)::int as n from information_schema.columns
        where table_name = ${table} and column_name = '_depth' and is_nullable = 'NO'`.execute(t.db.kysely);
      expect(column.rows[0]!.n, table).toBe(1);
      const triggers = await sql<{ tgname: string }>`select tgname from pg_trigger
        where tgrelid = ${table}::regclass and tgname like 'inv_tree_depth%' order by 1`.execute(t.db.kysely);
      expect(
        triggers.rows.map((r) => r.tgname),
        table,
      ).toEqual(['inv_tree_depth', 'inv_tree_depth_moved']);
    }
  });

  it('follows writes: created under a parent, moved with its subtree, and cascaded to the new root', async () => {
    const a = await region(uniq('a'), null);
    const b = await region(uniq('b'), a);
    const c = await region(uniq('c'), b);
    const d = await region(uniq('d'), c);
    const other = await region(uniq('o'), null);
    const deep = await region(uniq('p'), other);
    expect(await depths(a, b, c, d)).toEqual({ [a.name]: 0, [b.name]: 1, [c.name]: 2, [d.name]: 3 });
    expect(c._depth).toBe(2);

    // b and everything under it to the top
    expect((await t.patch(`/api/dcim/regions/${b.id}/`, { parent: null })).statusCode).toBe(200);
    expect(await depths(a, b, c, d)).toEqual({ [a.name]: 0, [b.name]: 0, [c.name]: 1, [d.name]: 2 });
    // and under a node at depth 1
    expect((await t.patch(`/api/dcim/regions/${b.id}/`, { parent: deep.id })).statusCode).toBe(200);
    expect(await depths(b, c, d)).toEqual({ [b.name]: 2, [c.name]: 3, [d.name]: 4 });

    // a bulk move: each row's subtree follows, whatever the order of the list
    const moved = await t.request('PATCH', '/api/dcim/regions/', {
      body: [
        { id: d.id, parent: a.id },
        { id: c.id, parent: null },
      ],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await depths(c, d)).toEqual({ [c.name]: 0, [d.name]: 1 });

    // a site nests its region with the region's depth, on a page and in the detail
    const site = (await t.post('/api/dcim/sites/', { name: uniq('s'), slug: uniq('s'), region: b.id })).json();
    expect(site.region._depth).toBe(2);
    const page = (await t.get(`/api/dcim/sites/?id=${site.id}`)).json();
    expect(page.results[0].region._depth).toBe(2);
    // the regions page and the brief form show it too
    const listed = (await t.get(`/api/dcim/regions/?id=${b.id}&id=${d.id}&brief=1`)).json();
    expect(Object.fromEntries(listed.results.map((r: Json) => [r.name, r._depth]))).toEqual({
      [b.name]: 2,
      [d.name]: 1,
    });
    await assertDepthsTrue('dcim_region');
  });

  it('is the same for rows written in SQL, and stays true through a cascade, in every tree table', async () => {
    const root = await region(uniq('r'), null);
    const id = (
      await sql<{
        id: number;
      }>`insert into dcim_region (name, slug, parent_id) values (${uniq('q')}, ${uniq('q')}, ${root.id}) returning id`.execute(
        t.db.kysely,
      )
    ).rows[0]!.id;
    await sql`insert into dcim_region (name, slug, parent_id) values (${uniq('q')}, ${uniq('q')}, ${id})`.execute(
      t.db.kysely,
    );
    await assertDepthsTrue('dcim_region');
    await sql`update dcim_region set parent_id = null where id = ${id}`.execute(t.db.kysely);
    await assertDepthsTrue('dcim_region');
    // deleting a parent takes its subtree with it (cascade); what is left stays true
    expect((await t.request('DELETE', `/api/dcim/regions/${root.id}/`)).statusCode).toBe(204);
    await assertDepthsTrue('dcim_region');
    for (const table of treeTables()) await assertDepthsTrue(table);
  });
});
