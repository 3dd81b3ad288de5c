/**
 * The SQL type of every column, read once per process from the catalog, so a lookup by values can
 * compare a column in its own type (`device_id = any($1::int8[])`) and use its index. A comparison
 * of `column::text` cannot: the uniqueness check of a bulk create of interfaces scanned the whole
 * table (10 ms per request at 10,000 interfaces, and growing).
 */
import { sql } from 'kysely';
import { catalogOnce } from './catalog-once.js';

/** `table.column` -> the type's name as an array element cast takes it (`int8`, `varchar`, `inet`) */
export const columnTypes = catalogOnce(async (rc) => {
  const res = await sql<{ t: string; c: string; udt: string }>`select table_name as t, column_name as c, udt_name as udt
    from information_schema.columns where table_schema = current_schema()`.execute(rc.q);
  return new Map(res.rows.map((r) => [`${r.t}.${r.c}`, r.udt]));
});
