/**
 * Inserts many rows with one parameter: the rows travel as one JSON array and
 * jsonb_populate_recordset() turns them into the table's row type, so PostgreSQL converts every
 * value to its column's type. Measured on 1,000 sites: 50 ms against 118 ms for a multi-row VALUES
 * list with ~15,000 parameters (bench/ findings). Columns no row names keep their defaults.
 * A single row travels as one JSON object through jsonb_populate_record(), the same conversion
 * without a set to number and sort (bench/README.md: a single create of an address and its change record,
 * pgbench, 35-60 us less PostgreSQL CPU of ~650).
 */
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import type { Row } from '../core/model/types.js';
import type { Kdb } from './client.js';

const MAX_TEXTS = 2_000;

/**
 * Statement texts kept by key: the same few come back write after write, and building them
 * through Kysely's compiler was ~5 % of a single create's CPU (bench/README.md). Bounded: a client sending
 * ever other column sets cannot grow one past MAX_TEXTS.
 */
export function keptTexts(): (key: string, build: () => string) => string {
  const texts = new Map<string, string>();
  return (key, build) => {
    let text = texts.get(key);
    if (text === undefined) {
      text = build();
      if (texts.size >= MAX_TEXTS) texts.clear();
      texts.set(key, text);
    }
    return text;
  };
}

/** Rows as the one JSON parameter of insertFromJson: a record for one row, a set for more, and every column any row names. */
export function jsonRows(rows: Row[]): { single: boolean; columns: string[]; json: string } {
  const single = rows.length === 1;
  return {
    single,
    columns: single ? Object.keys(rows[0]!) : keysOfAll(rows),
    json: JSON.stringify(single ? rows[0] : rows),
  };
}

/** `insert into <table> (<columns>) select <columns>` from the rows' JSON, the statement's first parameter (jsonRows); a set in input order */
export function insertFromJson(table: string, columns: string[], single: boolean): RawBuilder<unknown> {
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const t = sql.table(table);
  const source = single
    ? sql`jsonb_populate_record(null::${t}, ${'$rows'}::jsonb) as r`
    : sql`jsonb_populate_recordset(null::${t}, ${'$rows'}::jsonb) with ordinality as r order by r.ordinality`;
  return sql`insert into ${t} (${list}) select ${list} from ${source}`;
}

const insertTexts = keptTexts();

/** Returns the inserted rows (RETURNING *) in input order when `returning` is set. */
export async function insertRows(q: Kdb, table: string, rows: Row[], returning = false): Promise<Row[]> {
  if (rows.length === 0) return [];
  const { single, columns, json } = jsonRows(rows);
  const key = `${table}|${returning ? 1 : 0}|${single ? 1 : 0}|${columns.join(',')}`;
  const text = insertTexts(
    key,
    () => sql`${insertFromJson(table, columns, single)} ${returning ? sql`returning *` : sql``}`.compile(q).sql,
  );
  const res = await q.executeQuery<Row>(CompiledQuery.raw(text, [json]));
  if (!returning) return [];
  // ids come from the sequence in insertion order, which followed the input order
  return single ? res.rows : [...res.rows].sort((a, b) => Number(a.id) - Number(b.id));
}

/** every key of any row, without a flat array of all of them (100 rows of 28 columns: 2,800) */
function keysOfAll(rows: Row[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}
