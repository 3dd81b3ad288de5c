/**
 * The ids of the rows a filter's values name, by id or by a natural key (a slug, a name, an RD),
 * for filters that reach the listed objects through another table. A value that names nothing is a
 * 400 naming the parameter (reference 8.3; NetBox's ModelMultipleChoiceFilter answers so).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import { equalsAny } from './lookups.js';
import { parseFilterValue } from './parse-value.js';

/** the 400 of a filter value that names no choice or no row (NetBox's words) */
export function invalidChoice(param: string, value: string) {
  return Errors.invalidFilter(param, `Select a valid choice. ${value} is not one of the available choices.`);
}

export async function namedIds(
  rc: RequestContext,
  param: string,
  table: string,
  column: string,
  values: string[],
): Promise<number[]> {
  const byId = column === 'id';
  const keys = byId ? values.map((v) => String(parseFilterValue(param, 'id', v))) : values;
  const key = sql.ref(column);
  // ids compared as bigint: as text no index served them, and every row was read
  // (services/?ipaddress_id= read each of a million addresses); one value as `= $1` (equalsAny)
  const match = byId ? equalsAny(sql`id`, keys, 'bigint') : equalsAny(sql`${key}::text`, keys, 'text');
  const found = await sql<{
    id: number;
    k: string;
  }>`select id, ${key}::text as k from ${sql.table(table)} where ${match}`.execute(rc.q);
  const have = new Set(found.rows.map((r) => r.k));
  const missing = keys.find((k) => !have.has(k));
  if (missing !== undefined) throw invalidChoice(param, missing);
  return found.rows.map((r) => Number(r.id));
}
