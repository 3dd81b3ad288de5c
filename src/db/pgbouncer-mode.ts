/**
 * The start's checks behind a transaction-pooling PgBouncer (DATABASE_PGBOUNCER; docs/postgresql.md,
 * "PgBouncer"). Their lines are logged once at start (app.ts); neither stops the service.
 */
import { sql } from 'kysely';
import type { Kdb } from './client.js';

export const NO_DIRECT_URL =
  'DATABASE_PGBOUNCER without DATABASE_DIRECT_URL: no change notifications (LISTEN needs a session), so the caches are off; set DATABASE_DIRECT_URL to the server itself to use them';

/**
 * The statement timeout cannot be a session setting behind PgBouncer (a SET would stay on a server
 * connection lent to others next, and PgBouncer refuses it in the startup packet). Setting it in
 * every transaction (`SET LOCAL`) would cost a statement per transaction and leave statements
 * outside transactions (most reads) unbounded; the server's default for the role in this database
 * bounds every statement at no cost per request. So the operator sets that default, and the start
 * says when it differs from STATEMENT_TIMEOUT.
 */
export async function pgbouncerNotices(
  kysely: Kdb,
  directUrl: string | null,
  statementTimeoutSec: number,
): Promise<string[]> {
  const notices = directUrl ? [] : [NO_DIRECT_URL];
  const want = statementTimeoutSec > 0 ? Math.max(1, Math.round(statementTimeoutSec * 1000)) : 0;
  const { rows } = await sql<{ ms: string; role: string; db: string }>`select setting as ms, current_user as role,
    current_database() as db from pg_settings where name = 'statement_timeout'`.execute(kysely);
  const row = rows[0];
  if (row && Number(row.ms) !== want) {
    notices.push(
      `STATEMENT_TIMEOUT is ${want} ms but behind PgBouncer the server's default applies (${row.ms} ms); set it with: alter role "${row.role}" in database "${row.db}" set statement_timeout = ${want}`,
    );
  }
  return notices;
}
