/**
 * Totals of list queries, cached per process. A list page's `count` is a second scan of every
 * matching row, the dominant cost of a page on a large table (DESIGN: Performance habits), and
 * clients that walk a result set page by page (pynetbox, Ansible) ask for the same total again
 * with every offset. An entry is keyed by the count statement's SQL and parameters (the filters
 * and the user's permission scope included) and is good only while the database's data generation
 * (db/change-watch.ts) has not moved since its query began, and for at most TTL_MS, which bounds
 * the effect of writes made outside the service (by hand, in SQL). A read served through the
 * response cache brings its data version (db/client.ts) instead, which is exact.
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

/** the data generation (a number) or a data version (a string) */
type Generation = number | string;

interface Entry {
  generation: Generation;
  at: number;
  n: number;
}

export interface CountCache {
  get(key: string, generation: Generation): number | undefined;
  set(key: string, generation: Generation, n: number): void;
  /** totals served from the cache so far (tests, diagnostics) */
  readonly hits: number;
}

export function createCountCache(): CountCache {
  const entries = new Map<string, Entry>();
  let hits = 0;
  return {
    get hits() {
      return hits;
    },
    get(key, generation) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.generation !== generation || Date.now() - e.at > TTL_MS) {
        entries.delete(key);
        return undefined;
      }
      hits++;
      return e.n;
    },
    set(key, generation, n) {
      // filters come from clients: keep the map bounded (oldest entries go first)
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, { generation, at: Date.now(), n });
    },
  };
}
