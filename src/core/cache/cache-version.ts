/**
 * Which version a cache entry is stored under and checked against (versioned-cache.ts):
 *
 * - a cached read's *data version* when the request asked for one (cached-read.ts): PostgreSQL's
 *   snapshot, exact across processes and connections; on PGlite the data generation;
 * - otherwise the *data generation* (db/change-watch.ts): it moves when a write statement of this
 *   process has run - COMMIT included, so after every commit - and when another process's write is
 *   notified (LISTEN/NOTIFY, milliseconds after its commit);
 * - with `tables`, their own generations instead (db/table-generations.ts): a write to any other
 *   table leaves the entry alone;
 * - none at all (nothing is served or stored) inside a transaction, which sees its own uncommitted
 *   writes, or while the change listener is down and other processes' commits would go unnoticed.
 */
import type { RequestContext } from '../context.js';

export function cacheVersion(
  rc: Pick<RequestContext, 'app' | 'q' | 'dataVersion'>,
  tables?: readonly string[],
): string | null {
  if (rc.q.isTransaction) return null;
  if (rc.dataVersion) return rc.dataVersion;
  const { changes } = rc.app.db;
  if (!changes.reliable) return null;
  // a cache of a few tables' data: only their writes end it (db/table-generations.ts)
  return tables ? `t${changes.tableVersion(tables)}` : `g${changes.generation}`;
}
