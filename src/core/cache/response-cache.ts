/**
 * Rendered read responses, cached per process. A source of truth is read far more than it is
 * written, and its clients read the same pages over and over (an Ansible inventory run, pynetbox
 * walking a list, Terraform refreshing state): rendering a page of 50 sites costs about ten times
 * what sending the stored bytes does (bench/).
 *
 * An entry is the serialized body under the *data version* it was read at (cache-version.ts; on
 * PostgreSQL the server's snapshot, asked before the read's first statement): it is served only
 * while no transaction has committed since, in this process or any other, SQL typed by hand
 * included, and for at most TTL_MS (versioned-cache.ts). Bounded by bytes.
 *
 * A key is stored only when it is asked for the second time: asking the version costs a statement,
 * which a URL read once (a walk over random details, a one-off filter) would pay for nothing.
 */
import { LRUCache } from 'lru-cache';
import { type CacheStats, createVersionedCache } from './versioned-cache.js';

/** keys asked once and not stored, remembered so their second request stores them */
const MAX_SEEN = 10_000;
/** longer keys (URLs with huge query strings) are never kept: the memory of seen keys stays bounded */
const MAX_KEY_LENGTH = 2_048;
/** an entry may take at most this share of the budget (a 20 MB page of 1,000 devices is not kept) */
const MAX_ENTRY_SHARE = 8;

/** A stored answer: the serialized body, and the ETag it was sent with (a detail's, crud/etag.ts) */
interface CachedAnswer {
  body: Buffer;
  etag: string | null;
}

export interface ResponseCache {
  /** true when the key was asked before (worth a version); remembers it otherwise */
  seen(key: string): boolean;
  get(key: string, version: string): CachedAnswer | undefined;
  set(key: string, version: string, answer: CachedAnswer): void;
  /** diagnostics, tests and metrics */
  readonly stats: CacheStats;
}

export function createResponseCache(maxBytes: number): ResponseCache {
  const once = new LRUCache<string, true>({ max: MAX_SEEN });
  const entries = createVersionedCache<CachedAnswer>({
    maxBytes,
    sizeOf: (key, answer) => answer.body.length + key.length + (answer.etag?.length ?? 0),
    // a stale entry's key stays known: its next answer is stored again
    onStale: (key) => void once.set(key, true),
  });
  return {
    get stats() {
      return entries.stats;
    },
    seen(key) {
      if (key.length > MAX_KEY_LENGTH) return false;
      // get, not has: a key read often stays the most recently used
      if (once.get(key)) return true;
      once.set(key, true);
      return false;
    },
    get: entries.get,
    set(key, version, answer) {
      if ((answer.body.length + key.length) * MAX_ENTRY_SHARE > maxBytes) return;
      entries.set(key, version, answer);
    },
  };
}
