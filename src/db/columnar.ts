/**
 * A large page read as columns: one row whose every column is an array of the page's values, in
 * the page's order (`array_agg(...)::text` over the page query), split back into rows here.
 * A page of 1,000 brief prefixes spent a quarter of its Node time in the driver's
 * per-row work - a message, a field list and an object for each of a thousand rows - and read
 * as two arrays it cost 2.0-2.1 ms of Node per request instead of 3.7-4.4, with PostgreSQL's share
 * unchanged (printing an array costs it what sending the rows did).
 *
 * Only columns whose type has a known text form are read so (ELEMENT below: the values the
 * engines' own parsers would have made, type-parsers.ts included); a table with any other column
 * type among those read (an array, which array_agg would nest) is read as rows.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../core/context.js';
import { rowBuilder } from './row-builders.js';
import { typeParsers } from './type-parsers.js';

type Parse = (s: string) => unknown;
const same: Parse = (s) => s;
const integer: Parse = (s) => parseInt(s, 10);

/** the value of one array element's text, by the column's type: what the drivers make of the column (type-parsers.ts first) */
const ELEMENT: Record<number, Parse> = {
  16: (s) => s === 't', // bool
  18: same, // "char"
  19: same, // name
  21: integer, // int2
  23: integer, // int4
  25: same, // text
  26: integer, // oid
  114: (s) => JSON.parse(s), // json
  650: same, // cidr
  700: parseFloat, // float4
  701: parseFloat, // float8
  829: same, // macaddr
  1042: same, // bpchar
  1043: same, // varchar
  2950: same, // uuid
  3802: (s) => JSON.parse(s), // jsonb
  ...typeParsers,
};

/** per database: each table's columns and their types, read once (the schema is migrated before serving) */
const typesOf = new WeakMap<object, Map<string, Promise<Map<string, number>>>>();

async function columnTypes(rc: RequestContext, table: string): Promise<Map<string, number>> {
  let tables = typesOf.get(rc.app.db);
  if (!tables) typesOf.set(rc.app.db, (tables = new Map()));
  let types = tables.get(table);
  if (!types) {
    types = sql<{ name: string; type: number }>`select attname as name, atttypid::int as type from pg_attribute
      where attrelid = ${table}::regclass and attnum > 0 and not attisdropped order by attnum`
      .execute(rc.q)
      .then((r) => new Map(r.rows.map((c) => [c.name, Number(c.type)])));
    tables.set(table, types);
    types.catch(() => tables!.delete(table));
  }
  return types;
}

/** the columns a columnar read takes, each with the parser of its elements */
export type ColumnarColumns = Array<[name: string, parse: Parse]>;

/**
 * The columns of `table` a columnar read of `columns` (null: all) takes, or null when one of them
 * has a type it cannot read (the page is then read as rows).
 */
export async function columnarColumns(
  rc: RequestContext,
  table: string,
  columns: string[] | null,
): Promise<ColumnarColumns | null> {
  const types = await columnTypes(rc, table);
  const out: ColumnarColumns = [];
  for (const c of columns ?? types.keys()) {
    const parse = ELEMENT[types.get(c) ?? -1];
    if (!parse) return null;
    out.push([c, parse]);
  }
  return out;
}

/**
 * The rows of `page` (a query selecting `columns`, and `__total` when `withTotal`), read as one row
 * of arrays. array_agg takes the page's rows in the order its query sorted them.
 */
export async function readColumnar(
  rc: RequestContext,
  page: RawBuilder<unknown>,
  columns: ColumnarColumns,
  withTotal: boolean,
): Promise<Array<Record<string, unknown>>> {
  const arrays = columns.map(([c]) => sql`array_agg(p.${sql.ref(c)})::text as ${sql.ref(c)}`);
  const res = await sql<
    Record<string, string | null>
  >`select ${sql.join(arrays)}${withTotal ? sql`, min(p.__total) as __total` : sql``} from (${page}) p`.execute(rc.q);
  const one = res.rows[0]!;
  const values = columns.map(([c, parse]) => {
    const text = one[c];
    return text == null ? [] : parseArrayText(text, parse);
  });
  const n = values[0]?.length ?? 0;
  const rows: Array<Record<string, unknown>> = new Array(n);
  // each row one object literal, as the driver's rows are (row-builders.ts); the builder copies the cells
  const build = rowBuilder(columns.map(([c]) => c));
  const cells: unknown[] = new Array(columns.length);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < columns.length; j++) cells[j] = values[j]![i];
    rows[i] = build(cells);
  }
  if (withTotal && n > 0) rows[0]!.__total = one.__total;
  return rows;
}

/**
 * The elements of a one-dimensional array's text (`{1,NULL,"a b","q\"uote"}`), each through
 * `parse` (NULL stays null). PostgreSQL quotes an element that is empty, is NULL's word, or holds
 * a space, a comma, a brace, a quote or a backslash; inside quotes a backslash escapes the next
 * character.
 */
export function parseArrayText(text: string, parse: Parse): unknown[] {
  const out: unknown[] = [];
  if (text.charCodeAt(0) !== 123 /* { */) throw new Error(`not an array's text: ${text.slice(0, 40)}`);
  const end = text.length - 1;
  let i = 1;
  if (i === end) return out;
  for (;;) {
    if (text.charCodeAt(i) === 34 /* " */) {
      let value = '';
      let from = ++i;
      for (;;) {
        const c = text.charCodeAt(i);
        if (c === 92 /* \ */) {
          value += text.slice(from, i);
          from = ++i;
          i++;
        } else if (c === 34) break;
        else if (i >= end) throw new Error('unterminated quoted array element');
        else i++;
      }
      out.push(parse(value + text.slice(from, i)));
      i++;
    } else {
      let stop = text.indexOf(',', i);
      if (stop === -1 || stop > end) stop = end;
      const raw = text.slice(i, stop);
      out.push(raw.length === 4 && raw.toUpperCase() === 'NULL' ? null : parse(raw));
      i = stop;
    }
    if (i >= end) return out;
    i++; // the comma
  }
}
