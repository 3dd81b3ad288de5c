/**
 * The one freshness rule every cache of the service follows (README.md beside this file):
 *
 *   an entry is served only at the version it was stored under, and for at most TTL_MS.
 *
 * A version is a token that moves whenever committed data may have changed (cache-version.ts). It
 * is taken *before* the data is read, so an entry can only be older than its version says, never
 * newer: a commit that lands while the data is being read moves the version, and the entry is
 * never served. Nothing is "invalidated": a write moves the version once it has committed, and
 * every entry stored before is dead from then on (a stale entry found is dropped). TTL_MS bounds
 * what a version cannot see: SQL typed by hand into the database while no notification says so.
 *
 * Bounded with `lru-cache`, by entries or by bytes; least recently used out first.
 */
import { LRUCache } from 'lru-cache';

export const TTL_MS = 5_000;

export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  /** bytes held, for caches bounded by bytes (0 otherwise) */
  bytes: number;
}

export interface VersionedCache<V> {
  /** the value stored under `key` at `version` and less than TTL_MS ago */
  get(key: string, version: string): V | undefined;
  set(key: string, version: string, value: V): void;
  /**
   * The cached value, else `load()`'s, stored under `version`. The caller takes the version
   * before calling (before anything is read); null serves and stores nothing.
   */
  through(key: string, version: string | null, load: () => Promise<V>): Promise<V>;
  /** hits and misses so far, and what is held (diagnostics, tests, metrics) */
  readonly stats: CacheStats;
}

export interface CacheLimits<V> {
  /** most entries kept */
  max?: number;
  /** most bytes kept, with the size of one entry */
  maxBytes?: number;
  sizeOf?(key: string, value: V): number;
  /** called with the key of an entry found stale (wrong version or too old) */
  onStale?(key: string): void;
}

interface Entry<V> {
  version: string;
  at: number;
  value: V;
}

export function createVersionedCache<V>(limits: CacheLimits<V>): VersionedCache<V> {
  const sizeOf = limits.sizeOf;
  const lru = new LRUCache<string, Entry<V>>(
    limits.maxBytes && sizeOf
      ? { maxSize: limits.maxBytes, sizeCalculation: (e, key) => Math.max(1, sizeOf(key, e.value)) }
      : { max: limits.max ?? 1_000 },
  );
  let hits = 0;
  let misses = 0;
  const get = (key: string, version: string): V | undefined => {
    const e = lru.get(key);
    if (e && e.version === version && Date.now() - e.at <= TTL_MS) {
      hits++;
      return e.value;
    }
    if (e) {
      lru.delete(key);
      limits.onStale?.(key);
    }
    misses++;
    return undefined;
  };
  // lru-cache refuses (and drops the old entry of) a value larger than the whole budget
  const set = (key: string, version: string, value: V) => void lru.set(key, { version, at: Date.now(), value });
  return {
    get,
    set,
    async through(key, version, load) {
      if (version === null) return load();
      const hit = get(key, version);
      if (hit !== undefined) return hit;
      const value = await load();
      set(key, version, value);
      return value;
    },
    get stats() {
      return { hits, misses, entries: lru.size, bytes: lru.calculatedSize ?? 0 };
    },
  };
}
