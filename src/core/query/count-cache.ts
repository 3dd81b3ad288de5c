/**
 * Totals of list queries, cached per process. A list page's `count` is a second scan of every
 * matching row, the dominant cost of a page on a large table (DESIGN: Performance habits), and
 * clients that walk a result set page by page (pynetbox, Ansible) ask for the same total again
 * with every offset. An entry is keyed by the count statement's SQL and parameters (the filters
 * and the user's permission scope included) and is good only while the database's data generation
 * (db/change-watch.ts) has not moved since its query began, and for at most TTL_MS, which bounds
 * the effect of writes made outside the service (by hand, in SQL).
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

interface Entry {
  generation: number;
  at: number;
  n: number;
}

export interface CountCache {
  get(key: string, generation: number): number | undefined;
  set(key: string, generation: number, n: number): void;
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
