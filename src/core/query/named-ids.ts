/**
 * The ids of the rows a filter's values name, by id or by a natural key (a slug, a name, an RD),
 * for filters that reach the listed objects through another table. A value that names nothing is a
 * 400 naming the parameter (reference 8.3; NetBox's ModelMultipleChoiceFilter answers so).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import { parseFilterValue } from './parse-value.js';

export async function namedIds(rc: RequestContext, param: string, table: string, column: string, values: string[]): Promise<number[]> {
  const byId = column === 'id';
  const keys = byId ? values.map((v) => String(parseFilterValue(param, 'id', v))) : values;
  const key = sql.ref(column);
  // ids compared as bigint: as text no index served them, and every row was read
  // (services/?ipaddress_id= read each of a million addresses); one value as `= $1`, whose generic
  // plan PostgreSQL keeps, where it plans `= any()` of an array again for every request
  const match = byId
    ? keys.length === 1 ? sql`id = ${keys[0]}::bigint` : sql`id = any(${keys}::bigint[])`
    : keys.length === 1 ? sql`${key}::text = ${keys[0]}::text` : sql`${key}::text = any(${keys}::text[])`;
  const found = await sql<{ id: number; k: string }>`select id, ${key}::text as k from ${sql.table(table)} where ${match}`.execute(rc.q);
  const have = new Set(found.rows.map((r) => r.k));
  const missing = keys.find((k) => !have.has(k));
  if (missing !== undefined) throw Errors.invalidFilter(param, `Select a valid choice. ${missing} is not one of the available choices.`);
  return found.rows.map((r) => Number(r.id));
}
