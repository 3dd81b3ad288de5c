/**
 * Applies the SQL files in ./migrations in name order, each once, each in its own transaction.
 * On PostgreSQL an advisory lock keeps two processes from migrating at the same time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './client.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 4_242_001;

export function listMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

export function readMigration(name: string): string {
  return readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
}

/** Returns the names of the migrations it applied. */
export async function migrate(db: Database): Promise<string[]> {
  await db.exec(`create table if not exists schema_migrations (
    name text primary key, applied_at timestamptz not null default now())`);
  const applied: string[] = [];
  const run = async () => {
    const done = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
    const seen = new Set(done.rows.map((r) => r.name));
    for (const name of listMigrations()) {
      if (seen.has(name)) continue;
      const body = readMigration(name);
      const escaped = name.replace(/'/g, "''");
      try {
        await db.exec(`begin;\n${body}\n;insert into schema_migrations(name) values ('${escaped}');\ncommit;`);
      } catch (err) {
        await db.exec('rollback').catch(() => undefined);
        throw new Error(`migration ${name} failed: ${(err as Error).message}`);
      }
      applied.push(name);
    }
  };
  if (db.engine === 'postgres') {
    await db.kysely.connection().execute(async (conn) => {
      // waiting for another process's migrations is not a slow statement (STATEMENT_TIMEOUT)
      await sql`set statement_timeout = 0`.execute(conn);
      await sql`select pg_advisory_lock(${LOCK_KEY})`.execute(conn);
      try {
        await run();
      } finally {
        await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
        await sql`reset statement_timeout`.execute(conn);
      }
    });
  } else {
    await run();
  }
  return applied;
}
