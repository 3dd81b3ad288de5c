/**
 * Which version a cache entry is stored under and checked against (versioned-cache.ts):
 *
 * - a cached read's *data version* when the request asked for one (cached-read.ts): PostgreSQL's
 *   snapshot, exact across processes and connections; on PGlite the data generation;
 * - otherwise the *data generation* (db/change-watch.ts): it moves when a write statement of this
 *   process has run - COMMIT included, so after every commit - and when another process's write is
 *   notified (LISTEN/NOTIFY, milliseconds after its commit);
 * - none at all (nothing is served or stored) inside a transaction, which sees its own uncommitted
 *   writes, or while the change listener is down and other processes' commits would go unnoticed.
 */
import type { RequestContext } from '../context.js';

export function cacheVersion(rc: Pick<RequestContext, 'app' | 'q' | 'dataVersion'>): string | null {
  if (rc.q.isTransaction) return null;
  if (rc.dataVersion) return rc.dataVersion;
  const { changes } = rc.app.db;
  return changes.reliable ? `g${changes.generation}` : null;
}
