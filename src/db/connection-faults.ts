/**
 * Which database errors mean "the database could not be reached or went away under the request",
 * as opposed to "the request was wrong" (and a write sent to a server that is read-only now, a standby
 * during a failover): the error handler answers those with a 503 and
 * Retry-After (Errors.databaseUnavailable), never a 500, and the pool opens a new connection on the
 * next request. Sources: PostgreSQL's SQLSTATE table (appendix A), the socket errors Node reports,
 * and the messages `pg` and `pg-pool` make when a connection ends (they carry no code).
 */

interface MaybeDbError {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** Node socket errors while connecting or talking to the server */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATE: 57P01 admin_shutdown (pg_terminate_backend, fast shutdown), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up, in recovery), 53300 too_many_connections; class 08 is
 * connection exceptions.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** pg (client.js) and pg-pool (index.js) messages for a connection that ended or never came */
const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'timeout expired',
];

export function isConnectionFault(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as MaybeDbError;
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (!code && PG_MESSAGES.some((m) => message.startsWith(m))) return true;
  // connecting to a name with several addresses fails with all of their errors
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isConnectionFault);
}

/**
 * 25006 read_only_sql_transaction on a write: the server is a standby, or was the primary and has
 * been demoted (a switchover), so the write belongs on another host (failover/README.md)
 */
export function isReadOnlyServer(err: unknown): boolean {
  return (err as MaybeDbError)?.code === '25006';
}

/** 57014 query_canceled, raised by statement_timeout (STATEMENT_TIMEOUT) */
export function isStatementTimeout(err: unknown): boolean {
  const e = err as MaybeDbError;
  return e?.code === '57014' && typeof e.message === 'string' && e.message.includes('statement timeout');
}

/** 57014 for another reason: an administrator canceled the statement (pg_cancel_backend) */
export function isCanceled(err: unknown): boolean {
  return (err as MaybeDbError)?.code === '57014';
}
