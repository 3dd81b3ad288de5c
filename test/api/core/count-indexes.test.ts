/**
 * Every per-object count a representation shows (a site's device_count, a device's
 * interface_count ...) is one index scan per object of the page (represent/load-related.ts
 * countSql): the counted column must lead an index, or each object of a page would scan the table.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../../src/apps/index.js';
import { Registry } from '../../../src/core/model/registry.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('counted columns', () => {
  it('each lead an index', async () => {
    const res = await sql<{ tbl: string; col: string }>`select t.relname as tbl, a.attname as col
      from pg_index i join pg_class t on t.oid = i.indrelid join pg_attribute a on a.attrelid = t.oid and a.attnum = i.indkey[0]`.execute(
      t.db.kysely,
    );
    const led = new Set(res.rows.map((r) => `${r.tbl}.${r.col}`));
    const models = new Registry();
    registerAllModels(models);
    const missing: string[] = [];
    let checked = 0;
    for (const m of models.freeze().all()) {
      for (const [key, c] of Object.entries(m.counts)) {
        if (c.generic) continue;
        const column = c.through
          ? `${c.through.table}.${c.through.column}`
          : `${models.get(c.model!).table}.${c.via}_id`;
        checked++;
        if (!led.has(column)) missing.push(`${m.name}.${key}: ${column}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
