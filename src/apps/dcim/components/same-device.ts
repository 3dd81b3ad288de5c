/** Checks that a component points at another component of its own device (NetBox clean() rules). */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/represent/load-related.js';

/** the row of `table` with this id, or undefined */
export async function rowOf(rc: RequestContext, table: string, id: unknown): Promise<Row | undefined> {
  if (id == null) return undefined;
  const res = await sql<Row>`select * from ${sql.table(table)} where id = ${Number(id)}`.execute(rc.q);
  return res.rows[0];
}

/** the display of a component row as NetBox's str() gives it: its name */
export const componentName = (row: Row) => String(row.name);

/** the device of a stored or written component, whichever the write gives */
export const deviceIdOf = (data: Row, before: Row | null | undefined) => Number(data.device_id ?? before?.device_id);
