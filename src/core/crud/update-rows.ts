/**
 * The UPDATE statements of a write: rows that change the same columns are updated together, up to
 * BATCH rows per statement, from a typed record set (`jsonb_to_recordset`, each column in its own
 * SQL type from the catalog), so a bulk edit of 10,000 interfaces runs 20 statements, not 10,000.
 * A row whose values the record set cannot carry (an SQL expression a hook set) is updated on its
 * own, as every row was before.
 */
import { isOperationNodeSource, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';
import { columnTypes } from './column-types.js';

const BATCH = 500;

export interface RowUpdate {
  id: number;
  /** column -> value as the driver takes it, JSON columns as objects (not yet strings) */
  values: Row;
  /** JSON columns, by name */
  json: ReadonlySet<string>;
}

/** an array type as a record set column takes it: the catalog's `_int8` is `int8[]` */
const sqlType = (udt: string) => (udt.startsWith('_') ? `${udt.slice(1)}[]` : udt);

/** Updates each row's columns (and `last_updated` where the model keeps it); the updated rows by id. */
export async function updateRows(rc: RequestContext, model: ModelDef, updates: RowUpdate[]): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  const types = await columnTypes(rc);
  const groups = new Map<string, RowUpdate[]>();
  const alone: RowUpdate[] = [];
  for (const u of updates) {
    const cols = Object.keys(u.values).sort();
    const typed = cols.every((c) => types.has(`${model.table}.${c}`));
    if (!typed || Object.values(u.values).some((v) => isOperationNodeSource(v))) alone.push(u);
    else {
      const key = cols.join(',');
      groups.set(key, [...(groups.get(key) ?? []), u]);
    }
  }
  for (const u of alone) out.set(u.id, await updateOne(rc, model, u));
  for (const [key, group] of groups) {
    const cols = key ? key.split(',') : [];
    for (let i = 0; i < group.length; i += BATCH) {
      const batch = group.slice(i, i + BATCH);
      if (batch.length === 1 || !cols.length) {
        for (const u of batch) out.set(u.id, await updateOne(rc, model, u));
        continue;
      }
      for (const row of await updateBatch(rc, model, cols, types, batch)) out.set(Number(row.id), row);
    }
  }
  return out;
}

function stored(u: RowUpdate): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(u.values))
    out[k] = u.json.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : v;
  return out;
}

async function updateOne(rc: RequestContext, model: ModelDef, u: RowUpdate): Promise<Row> {
  const values = { ...stored(u), ...(model.timestamps ? { last_updated: sql`now()` } : {}) };
  return rc.q.updateTable(model.table).set(values).where('id', '=', u.id).returningAll().executeTakeFirstOrThrow();
}

async function updateBatch(
  rc: RequestContext,
  model: ModelDef,
  cols: string[],
  types: Map<string, string>,
  batch: RowUpdate[],
): Promise<Row[]> {
  const records = batch.map((u) => ({ ...u.values, id: u.id }));
  const shape = sql.join([
    sql`id int8`,
    ...cols.map((c) => sql`${sql.ref(c)} ${sql.raw(sqlType(types.get(`${model.table}.${c}`)!))}`),
  ]);
  const sets = [
    ...cols.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`),
    ...(model.timestamps ? [sql`last_updated = now()`] : []),
  ];
  const res = await sql<Row>`update ${sql.table(model.table)} as t set ${sql.join(sets)}
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(${shape})
    where t.id = v.id returning t.*`.execute(rc.q);
  return res.rows;
}
