/**
 * One stored row by id, for validation rules that look at a related object (NetBox's clean()
 * methods). By table, or by model name when the type comes from the request (a content type such as
 * `dcim.interface`): the registry gives its table, so a name is never turned into SQL by string
 * edits.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { Row } from '../represent/load-related.js';

/** the row of `table` with this id (only `columns` when given), or undefined; a null id gives undefined */
export async function rowById(rc: RequestContext, table: string, id: unknown, columns?: readonly string[]): Promise<Row | undefined> {
  if (id == null) return undefined;
  const what = columns?.length ? sql.join(columns.map((c) => sql.ref(c))) : sql`*`;
  const res = await sql<Row>`select ${what} from ${sql.table(table)} where id = ${Number(id)}`.execute(rc.q);
  return res.rows[0];
}

/** the row of the model named `type` with this id, or undefined (also for a type that is no model) */
export async function rowOfType(rc: RequestContext, type: unknown, id: unknown, columns?: readonly string[]): Promise<Row | undefined> {
  const model = rc.app.registry.find(String(type));
  return model ? rowById(rc, model.table, id, columns) : undefined;
}
