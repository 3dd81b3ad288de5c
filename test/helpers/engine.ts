/** Which database engine the suite runs on, and where PostgreSQL is. */
import { inject } from 'vitest';
import { adminQuery as benchAdminQuery } from '../../bench/server.js';
import { PG_ADMIN_URL, postgresUnreachable } from './pg-server.js';

export { PG_ADMIN_URL };
export const ENGINE = process.env.DB === 'postgres' ? 'postgres' : 'pglite';

export function pgUrl(database: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** the PgBouncer run (test/pgbouncer/global-setup.ts): `postgres://user@127.0.0.1:PORT/` */
    pgbouncer?: string;
  }
}

/** How a service reaches a test database: through PgBouncer on the PgBouncer run, else directly. */
export interface TestConnection {
  databaseUrl: string;
  pgbouncer: boolean;
  directUrl: string | null;
  /** the same as the service's settings (a child process's environment) */
  env: Record<string, string>;
}

export function testConnection(database: string): TestConnection {
  const bouncer = inject('pgbouncer');
  if (!bouncer)
    return { databaseUrl: pgUrl(database), pgbouncer: false, directUrl: null, env: { DATABASE_URL: pgUrl(database) } };
  const databaseUrl = `${bouncer}${database}`;
  const env = { DATABASE_URL: databaseUrl, DATABASE_PGBOUNCER: 'true', DATABASE_DIRECT_URL: pgUrl(database) };
  return { databaseUrl, pgbouncer: true, directUrl: pgUrl(database), env };
}

/**
 * Behind PgBouncer the statement timeout is the server's default for the database or role
 * (src/db/pgbouncer-mode.ts): a test database gets what the operator's documented step would give it.
 */
export async function setBouncedStatementTimeout(database: string, seconds: number): Promise<void> {
  if (!inject('pgbouncer')) return;
  await adminQuery(`alter database ${database} set statement_timeout = ${Math.round(seconds * 1000)}`);
}

/**
 * For the few tests that talk to the PostgreSQL server even on the PGlite run: true on DB=postgres
 * (where a missing server fails the run, as it should), else whether the server answers. `npm test`
 * on a machine without one skips them, and says so in their name.
 */
export async function needsPostgresServer(): Promise<{ available: boolean; reason: string }> {
  if (ENGINE === 'postgres') return { available: true, reason: '' };
  const why = await postgresUnreachable();
  if (why === null) return { available: true, reason: '' };
  return {
    available: false,
    reason: ` (skipped: needs the PostgreSQL server at ${PG_ADMIN_URL}, which is unreachable: ${why})`,
  };
}

/** one statement on the server's admin database (creating and dropping a test's own databases) */
export function adminQuery(text: string): Promise<void> {
  return benchAdminQuery(PG_ADMIN_URL, text);
}
