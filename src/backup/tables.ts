/**
 * Which tables a backup carries, read from pg_catalog so a new migration's table is included
 * without a list to keep up to date; and their columns, primary keys and a load order.
 */
import { sql } from 'kysely';
import type { Kdb } from '../db/client.js';

/**
 * Left out: sign-in sessions and failed sign-ins (a restored instance asks everyone to sign in
 * again), the running workers, and the webhook queue (events and deliveries: restoring them would
 * send old webhooks again). schema_migrations travels in the header.
 */
const EXCLUDED = new Set([
  'schema_migrations',
  'users_session',
  'users_signin_failure',
  'core_worker',
  'core_event',
  'core_delivery',
]);

/** Tables the migrations fill or that derive from other tables: rows there do not make a database "non-empty". */
export function isSeeded(table: string): boolean {
  return table === 'extras_contenttype' || table.startsWith('inv_');
}

export interface TableInfo {
  name: string;
  /** columns a row carries, generated ones left out (they cannot be inserted and are recomputed) */
  columns: string[];
  primaryKey: string[];
}

export async function listTables(db: Kdb): Promise<TableInfo[]> {
  const { rows } = await sql<{ name: string; columns: string[]; pk: string[] | null }>`
    select c.relname as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns,
      (select array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, n)
                    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n)
         from pg_index i where i.indrelid = c.oid and i.indisprimary) as pk
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`.execute(db);
  return rows
    .filter((r) => !EXCLUDED.has(r.name))
    .map((r) => ({ name: r.name, columns: r.columns, primaryKey: r.pk ?? r.columns }));
}

/**
 * Parents before children by the foreign keys between the tables (self references and cycles
 * cannot be ordered; the load defers those checks: restore.ts).
 */
export async function loadOrder(db: Kdb, tables: string[]): Promise<string[]> {
  const { rows } = await sql<{ child: string; parent: string }>`
    select distinct ch.relname as child, pa.relname as parent
    from pg_constraint k join pg_class ch on ch.oid = k.conrelid join pg_class pa on pa.oid = k.confrelid
    join pg_namespace n on n.oid = ch.relnamespace
    where k.contype = 'f' and n.nspname = 'public' and ch.oid <> pa.oid`.execute(db);
  const wanted = new Set(tables);
  const parents = new Map<string, string[]>(tables.map((t) => [t, []]));
  for (const r of rows) if (wanted.has(r.child) && wanted.has(r.parent)) parents.get(r.child)!.push(r.parent);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: string) => {
    if (state.get(t)) return; // done, or a cycle: leave it where it falls
    state.set(t, 'visiting');
    for (const p of parents.get(t) ?? []) visit(p);
    state.set(t, 'done');
    order.push(t);
  };
  for (const t of tables) visit(t);
  return order;
}
