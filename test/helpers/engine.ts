/** Which database engine the suite runs on, and where PostgreSQL is. */
import pg from 'pg';
import { adminQuery as benchAdminQuery } from '../../bench/server.js';

export const ENGINE = process.env.DB === 'postgres' ? 'postgres' : 'pglite';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function pgUrl(database: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * For the few tests that talk to the PostgreSQL server even on the PGlite run: true on DB=postgres
 * (where a missing server fails the run, as it should), else whether the server answers. `npm test`
 * on a machine without one skips them, and says so in their name.
 */
export async function needsPostgresServer(): Promise<{ available: boolean; reason: string }> {
  if (ENGINE === 'postgres') return { available: true, reason: '' };
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return { available: true, reason: '' };
  } catch (e) {
    return {
      available: false,
      reason: ` (skipped: needs the PostgreSQL server at ${PG_ADMIN_URL}, which is unreachable: ${(e as Error).message})`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** one statement on the server's admin database (creating and dropping a test's own databases) */
export function adminQuery(text: string): Promise<void> {
  return benchAdminQuery(PG_ADMIN_URL, text);
}
