/**
 * Rendered read responses, cached per process. A source of truth is read far more than it is
 * written, and its clients read the same pages over and over (an Ansible inventory run, pynetbox
 * walking a list, Terraform refreshing state): rendering a page of 50 sites costs about ten times
 * what sending the stored bytes does (bench/).
 *
 * An entry is the serialized body, the *data version* it was read at (db/client.ts
 * `dataVersion()`: PostgreSQL's snapshot, taken before the read's first statement) and the time it
 * was stored. It is served only when the version asked at the start of a later request is the same
 * - no transaction has committed since, in this process or any other, SQL typed by hand included -
 * and for at most TTL_MS, which bounds what the process's own short-lived caches (token lookups,
 * custom field definitions) may carry over from another process's write. Bounded by bytes, the
 * least recently used entries leave first.
 */
const TTL_MS = 5_000;
/** an entry may take at most this share of the budget (a 20 MB page of 1,000 devices is not kept) */
const MAX_ENTRY_SHARE = 8;

interface Entry {
  version: string;
  at: number;
  body: Buffer;
}

export interface ResponseCache {
  get(key: string, version: string): Buffer | undefined;
  set(key: string, version: string, body: Buffer): void;
  /** diagnostics and tests */
  readonly stats: { hits: number; misses: number; bytes: number; entries: number };
}

export function createResponseCache(maxBytes: number): ResponseCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  const drop = (key: string, e: Entry) => {
    entries.delete(key);
    bytes -= e.body.length + key.length;
  };
  return {
    get stats() {
      return { hits, misses, bytes, entries: entries.size };
    },
    get(key, version) {
      const e = entries.get(key);
      if (!e || e.version !== version || Date.now() - e.at > TTL_MS) {
        if (e) drop(key, e);
        misses++;
        return undefined;
      }
      // most recently used last: Map keeps insertion order
      entries.delete(key);
      entries.set(key, e);
      hits++;
      return e.body;
    },
    set(key, version, body) {
      const size = body.length + key.length;
      if (size * MAX_ENTRY_SHARE > maxBytes) return;
      const old = entries.get(key);
      if (old) drop(key, old);
      for (const [k, e] of entries) {
        if (bytes + size <= maxBytes) break;
        drop(k, e);
      }
      entries.set(key, { version, at: Date.now(), body });
      bytes += size;
    },
  };
}
