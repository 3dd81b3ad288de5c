/**
 * Where the tests' PostgreSQL server is, and whether it answers: read by vitest.config.ts (which
 * projects `npm test` runs) and by helpers/engine.ts (the tests that need a server on any engine).
 * It imports nothing of vitest's, so the config can load it.
 */
import pg from 'pg';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** null when the server at PG_ADMIN_URL answers, else why it does not */
export async function postgresUnreachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}
