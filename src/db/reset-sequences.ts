/** After rows were written with ids of their own (a restore, a copy from NetBox), new rows must not collide with them. */
import { sql } from 'kysely';
import type { Kdb } from './client.js';

/** every sequence owned by a column continues after the column's largest value */
export async function resetSequences(trx: Kdb): Promise<void> {
  const { rows } = await sql<{ seq: string; tbl: string; col: string }>`
    select format('%I.%I', sn.nspname, s.relname) as seq, t.relname as tbl, a.attname as col
    from pg_class s join pg_namespace sn on sn.oid = s.relnamespace
    join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
    join pg_class t on t.oid = d.refobjid join pg_namespace tn on tn.oid = t.relnamespace
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' and tn.nspname = 'public'`.execute(trx);
  for (const r of rows) {
    await sql`select setval(${r.seq}::regclass, coalesce((select max(${sql.ref(r.col)}) from ${sql.table(r.tbl)}), 0) + 1, false)`.execute(
      trx,
    );
  }
}
