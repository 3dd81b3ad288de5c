/**
 * A fact about the schema (column types, the tables that keep row counts), read from the catalog
 * once per process and shared by every request after; a read that failed is tried again by the
 * next request. The migrations that shape the schema run before the service starts.
 */
import type { AppContext, RequestContext } from '../context.js';

export function catalogOnce<T>(read: (rc: RequestContext) => Promise<T>): (rc: RequestContext) => Promise<T> {
  const loaded = new WeakMap<AppContext, Promise<T>>();
  return (rc) => {
    let value = loaded.get(rc.app);
    if (!value) {
      // on the request's own executor: PGlite has one connection, which a write's transaction may hold
      value = read(rc);
      value.catch(() => loaded.delete(rc.app));
      loaded.set(rc.app, value);
    }
    return value;
  };
}
