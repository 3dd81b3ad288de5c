/**
 * Applies the SQL files in ./migrations in name order, each once, each in its own transaction.
 * On PostgreSQL an advisory lock keeps two processes from migrating at the same time (session-work.ts:
 * a session lock, or behind PgBouncer without a direct URL a lock held by an open transaction).
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

/**
 * One migration as one transaction, recorded as applied in it. No statement timeout inside (an
 * index on a large table may take minutes): `set local`, since behind PgBouncer no session
 * setting can be relied on (docs/postgresql.md, "PgBouncer").
 */
export function migrationScript(name: string): string {
  const escaped = name.replace(/'/g, "''");
  return `begin;\nset local statement_timeout = 0;\n${readMigration(name)}\n;insert into schema_migrations(name) values ('${escaped}');\ncommit;`;
}

/** Returns the names of the migrations it applied. */
export async function migrate(db: Database): Promise<string[]> {
  const applied: string[] = [];
  const run = async () => {
    // under the lock: two processes creating it at once collide on its row type
    await db.exec(`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`);
    const done = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
    const seen = new Set(done.rows.map((r) => r.name));
    for (const name of listMigrations()) {
      if (seen.has(name)) continue;
      try {
        await db.exec(migrationScript(name));
      } catch (err) {
        await db.exec('rollback').catch(() => undefined);
        throw new Error(`migration ${name} failed: ${(err as Error).message}`);
      }
      applied.push(name);
    }
  };
  await db.holdingLock(LOCK_KEY, run);
  return applied;
}
