/**
 * Declarations and migrations must agree: every stored field of every registered model has its
 * column, every m2m its join table, and every model with tags/custom fields/timestamps the columns
 * those need. Catches a model declared without (or out of step with) its migration.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../../src/apps/index.js';
import { columnOf, storedFields } from '../../../src/core/model/define-model.js';
import { naturalColumn } from '../../../src/core/query/ordering.js';
import { Registry } from '../../../src/core/model/registry.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

let t: TestApp;
let columns: Map<string, Set<string>>;
beforeAll(async () => {
  t = await makeTestApp();
  const res = await sql<{ table_name: string; column_name: string }>`select table_name, column_name
    from information_schema.columns where table_schema = 'public'`.execute(t.db.kysely);
  columns = new Map();
  for (const r of res.rows) {
    const set = columns.get(r.table_name) ?? new Set();
    set.add(r.column_name);
    columns.set(r.table_name, set);
  }
});
afterAll(async () => t.close());

describe('every model has the columns its declaration needs', () => {
  for (const model of registry.all()) {
    it(model.name, () => {
      const cols = columns.get(model.table);
      expect(cols, `table ${model.table}`).toBeDefined();
      const need = ['id', ...storedFields(model).map(([k, f]) => columnOf(k, f))];
      if (model.customFields) need.push('custom_field_data');
      if (model.timestamps) need.push('created', 'last_updated');
      // ordering reads the stored natural key of natural fields (migration 0090)
      for (const [k, f] of Object.entries(model.fields)) if (f.natural) need.push(naturalColumn(k));
      for (const c of need) expect(cols!.has(c), `${model.table}.${c}`).toBe(true);
      for (const f of Object.values(model.fields)) {
        if (f.kind !== 'm2m') continue;
        const through = columns.get(f.through!.table);
        expect(through, `join table ${f.through!.table}`).toBeDefined();
        expect(through!.has(f.through!.from) && through!.has(f.through!.to), f.through!.table).toBe(true);
      }
    });
  }
});
