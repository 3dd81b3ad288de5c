/** Which database engine the suite runs on, and where PostgreSQL is. */
export const ENGINE = process.env.DB === 'postgres' ? 'postgres' : 'pglite';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function pgUrl(database: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}
