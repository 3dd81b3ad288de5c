/**
 * On PostgreSQL the service analyzes the tables a load grew within seconds (db/analyze-after-load.ts)
 * rather than waiting for autovacuum's minute, on a connection of its own, one process at a time.
 * Runs against the machine's PostgreSQL server whichever engine the suite runs on; skipped with the
 * reason on a machine without one.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDueTables, CHECK_MS } from '../../../src/db/analyze-after-load.js';
import { type Database, openDatabase } from '../../../src/db/client.js';
import { adminQuery, needsPostgresServer, pgUrl } from '../../helpers/engine.js';

const server = await needsPostgresServer();
if (!server.available) console.warn(`analyze-after-load.test.ts${server.reason}`);

const NAME = `inv_test_analyze_${process.pid}`;

describe.skipIf(!server.available)(`statistics after a load on PostgreSQL${server.reason}`, () => {
  let db: Database;
  const lastAnalyze = async (table: string) =>
    (
      await sql<{
        at: Date | null;
      }>`select last_analyze as at from pg_stat_user_tables where relname = ${table}`.execute(db.kysely)
    ).rows[0]?.at ?? null;

  beforeAll(async () => {
    await adminQuery(`drop database if exists ${NAME} with (force)`);
    await adminQuery(`create database ${NAME}`);
    db = await openDatabase({ databaseUrl: pgUrl(NAME), dataDir: '', poolSize: 2 });
    await sql`create table analyze_probe (x int not null)`.execute(db.kysely);
    await sql`create table analyze_quiet (x int not null)`.execute(db.kysely);
    await sql`insert into analyze_quiet select 1 from generate_series(1, 10)`.execute(db.kysely);
  });
  afterAll(async () => {
    await db?.close();
    await adminQuery(`drop database if exists ${NAME} with (force)`);
  });

  it('analyzes a table a load grew within seconds, and leaves one that barely changed', async () => {
    expect(await lastAnalyze('analyze_probe')).toBeNull();
    await sql`insert into analyze_probe select g from generate_series(1, 2000) g`.execute(db.kysely);
    const deadline = Date.now() + 6 * CHECK_MS;
    while ((await lastAnalyze('analyze_probe')) === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await lastAnalyze('analyze_probe')).not.toBeNull();
    // 10 rows are under autovacuum's threshold of 50: nothing to gain from analyzing them
    expect(await lastAnalyze('analyze_quiet')).toBeNull();
  });

  it('does no round while another process holds it', async () => {
    const other = new pg.Client({ connectionString: pgUrl(NAME) });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [0x696e7661]);
      // written by another process, so this one's own rounds (moved by its own writes) stay out of it
      await other.query('insert into analyze_probe select g from generate_series(1, 2000) g');
      expect(await analyzeDueTables(pgUrl(NAME))).toBeNull();
      // the insert's counters reach the shared statistics at this statement's end, not after an idle wait
      await other.query('select pg_stat_force_next_flush()');
      await other.query('select pg_advisory_unlock($1)', [0x696e7661]);
      expect(await analyzeDueTables(pgUrl(NAME))).toContain('public.analyze_probe');
    } finally {
      await other.end();
    }
  });
});
