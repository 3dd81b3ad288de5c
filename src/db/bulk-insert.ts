/**
 * Inserts many rows with one parameter: the rows travel as one JSON array and
 * jsonb_populate_recordset() turns them into the table's row type, so PostgreSQL converts every
 * value to its column's type. Measured on 1,000 sites: 50 ms against 118 ms for a multi-row VALUES
 * list with ~15,000 parameters (bench/ findings). Columns no row names keep their defaults.
 */
import { sql } from 'kysely';
import type { Kdb } from './client.js';

export type Row = Record<string, unknown>;

/** Returns the inserted rows (RETURNING *) in input order when `returning` is set. */
export async function insertRows(q: Kdb, table: string, rows: Row[], returning = false): Promise<Row[]> {
  if (rows.length === 0) return [];
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const t = sql.table(table);
  const res = await sql<Row>`insert into ${t} (${list})
    select ${list} from jsonb_populate_recordset(null::${t}, ${JSON.stringify(rows)}::jsonb) with ordinality as r
    order by r.ordinality
    ${returning ? sql`returning *` : sql``}`.execute(q);
  // ids come from the sequence in insertion order, which followed the input order
  return returning ? res.rows.sort((a, b) => Number(a.id) - Number(b.id)) : [];
}
