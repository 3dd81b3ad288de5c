/**
 * What the range-partitioned tables share (the change log by month: changelog-partitions.ts; the
 * webhook outbox by day: outbox-partitions.ts): partitions named `<table>_pYYYYMM` or
 * `<table>_pYYYYMMDD` after the UTC start of their range, a `<table>_default` partition that takes
 * any row no range covers, and upkeep steps that one process does at a time.
 *
 * Each step is one transaction that first takes a transaction-level advisory lock, without
 * waiting: of several processes (cluster workers, separate workers, several machines) one does the
 * step and the others skip it. DDL on a partition takes an ACCESS EXCLUSIVE lock on its parent for
 * an instant; `lock_timeout` keeps a step from queueing every reader behind a long transaction (the
 * step is tried again at the next round). DETACH ... CONCURRENTLY would avoid that lock, but
 * PostgreSQL allows it neither in a transaction nor beside a default partition (docs: ALTER TABLE).
 */
import { sql } from 'kysely';
import type { Kdb } from './client.js';

export interface RangePartition {
  name: string;
  /** the first instant of its range, UTC */
  start: Date;
}

/** `YYYYMM` for a month, `YYYYMMDD` for a day: what follows `_p` in a partition's name */
export function rangeSuffix(start: Date, unit: 'month' | 'day'): string {
  const month = `${start.getUTCFullYear()}${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  return unit === 'day' ? `${month}${String(start.getUTCDate()).padStart(2, '0')}` : month;
}

/** The range partitions of `table` there are (the default one left out), by name, with their start. */
export async function listRangePartitions(q: Kdb, table: string): Promise<RangePartition[]> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass order by c.relname`.execute(q);
  return rows.flatMap(({ name }) => {
    const m = /_p(\d{4})(\d{2})(\d{2})?$/.exec(name);
    return m ? [{ name, start: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1)) }] : [];
  });
}

/** Runs `step` in one transaction holding the advisory lock `key`; false when another process holds it. */
export async function underLock(q: Kdb, key: number, step: (trx: Kdb) => Promise<void>): Promise<boolean> {
  return q.transaction().execute(async (trx) => {
    const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${key}) as ok`.execute(trx);
    if (!rows[0]?.ok) return false;
    await sql`set local lock_timeout = '5s'`.execute(trx);
    // background work, not a request: a first retention over years of rows may delete for long
    await sql`set local statement_timeout = 0`.execute(trx);
    await step(trx);
    return true;
  });
}

export async function tableExists(q: Kdb, name: string): Promise<boolean> {
  const { rows } = await sql<{ t: string | null }>`select to_regclass(${name})::text as t`.execute(q);
  return Boolean(rows[0]?.t);
}

/**
 * Makes partition `name` of `table` for [start, end) of `column`, with the rows of that range the
 * default partition held: PostgreSQL refuses to attach a partition whose rows the default
 * partition still holds (docs: ALTER TABLE, ATTACH PARTITION). Made apart and attached, so the
 * parent is locked only for the attach.
 */
export async function attachRangePartition(
  trx: Kdb,
  p: { table: string; name: string; column: string; start: Date; end: Date },
): Promise<void> {
  const from = p.start.toISOString();
  const to = p.end.toISOString();
  await sql`create table ${sql.id(p.name)} (like ${sql.id(p.table)} including defaults)`.execute(trx);
  await sql`with moved as (delete from ${sql.id(`${p.table}_default`)} where ${sql.ref(p.column)} >= ${from}::timestamptz
      and ${sql.ref(p.column)} < ${to}::timestamptz returning *)
    insert into ${sql.id(p.name)} select * from moved`.execute(trx);
  await sql`alter table ${sql.id(p.table)} attach partition ${sql.id(p.name)}
    for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
}

/** Detaches and drops a partition: a catalog change, whatever number of rows it held. */
export async function dropPartition(trx: Kdb, table: string, name: string): Promise<void> {
  await sql`alter table ${sql.id(table)} detach partition ${sql.id(name)}`.execute(trx);
  await sql`drop table ${sql.id(name)}`.execute(trx);
}

/** Runs `round` `firstMs` after start and then every `everyMs`, never two at once; returns the stop function. */
export function startRounds(
  round: () => Promise<unknown>,
  firstMs: number,
  everyMs: number,
  onError: (e: Error) => void,
): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    void round()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(run, firstMs);
  const every = setInterval(run, everyMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
