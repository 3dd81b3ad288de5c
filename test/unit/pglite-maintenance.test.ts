/**
 * PGlite's stand-in for autovacuum (db/pglite-maintenance.ts): tables past PostgreSQL's default
 * thresholds get statistics and their dead rows vacuumed, and a round moves no data generation.
 * Runs on an in-memory PGlite whichever engine the suite was started for.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { maintainOnce } from '../../src/db/pglite-maintenance.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
  await sql`create table small (id int primary key)`.execute(db.kysely);
  await sql`create table big (id int primary key, v text)`.execute(db.kysely);
});
afterAll(async () => db.close());

const lastAnalyze = async (table: string) =>
  (
    await sql<{
      at: string | null;
    }>`select coalesce(last_analyze, last_autoanalyze)::text as at from pg_stat_user_tables where relname = ${table}`.execute(
      db.kysely,
    )
  ).rows[0]!.at;

describe('PGlite maintenance', () => {
  it('analyzes a table past the threshold, leaves one below it, and moves no generation', async () => {
    await sql`insert into small select g from generate_series(1, 10) g`.execute(db.kysely);
    await sql`insert into big select g, 'x' from generate_series(1, 1000) g`.execute(db.kysely);
    const generation = db.changes.generation;
    const round = await maintainOnce(db);
    expect(round.analyzed).toEqual(['big']);
    expect(await lastAnalyze('big')).not.toBeNull();
    expect(await lastAnalyze('small')).toBeNull();
    expect(db.changes.generation).toBe(generation);
    // planner statistics exist now
    const stats = await sql<{ n: number }>`select count(*)::int as n from pg_stats where tablename = 'big'`.execute(
      db.kysely,
    );
    expect(stats.rows[0]!.n).toBeGreaterThan(0);
    expect((await maintainOnce(db)).analyzed).toEqual([]);
  });

  it('vacuums a table whose dead rows pass the threshold', async () => {
    await sql`update big set v = 'y' where id <= 600`.execute(db.kysely);
    const round = await maintainOnce(db);
    expect(round.vacuumed).toEqual(['big']);
    const dead = await sql<{
      n: number;
    }>`select n_dead_tup::int as n from pg_stat_user_tables where relname = 'big'`.execute(db.kysely);
    expect(dead.rows[0]!.n).toBe(0);
  });

  it('takes up a table that grew while its counters were lost (PGlite keeps none across a restart)', async () => {
    await sql`insert into big select g, 'z' from generate_series(1001, 5000) g`.execute(db.kysely);
    await sql`select pg_stat_reset()`.execute(db.kysely);
    const round = await maintainOnce(db);
    expect(round.analyzed).toEqual(['big']);
    const est = await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = 'big'`.execute(
      db.kysely,
    );
    expect(est.rows[0]!.n).toBe(5000);
    expect((await maintainOnce(db)).analyzed).toEqual([]);
  });
});
