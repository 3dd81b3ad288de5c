import type { RequestContext } from '../context.js';

/**
 * Runs a write whose result nothing in the transaction waits for (the change log's rows), without
 * waiting for it: the next statement, or the COMMIT, goes out on the same connection right behind
 * it (pg's pipeline mode; PGlite runs them in order), one round trip fewer per write: a single
 * create takes two round trips, not three. If it fails, PostgreSQL aborts the transaction (its
 * COMMIT answers ROLLBACK) and inTransaction answers with its error. Outside a transaction it is
 * simply awaited.
 */
export async function deferWrite(rc: RequestContext, write: Promise<unknown>): Promise<void> {
  if (!rc.deferred) {
    await write;
    return;
  }
  // its error is taken by inTransaction, not left unhandled meanwhile
  write.catch(() => undefined);
  rc.deferred.push(write);
}
