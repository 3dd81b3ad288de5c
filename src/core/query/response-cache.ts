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
 *
 * A key is stored only when it is asked for the second time: asking the version costs a statement,
 * which a URL read once (a walk over random details, a one-off filter) would pay for nothing.
 */
const TTL_MS = 5_000;
/** keys asked once and not stored, remembered so their second request stores them */
const MAX_SEEN = 10_000;
/** longer keys (URLs with huge query strings) are never kept: the memory of seen keys stays bounded */
const MAX_KEY_LENGTH = 2_048;
/** an entry may take at most this share of the budget (a 20 MB page of 1,000 devices is not kept) */
const MAX_ENTRY_SHARE = 8;

interface Entry {
  version: string;
  at: number;
  body: Buffer;
}

export interface ResponseCache {
  /** true when the key was asked before (worth a version); remembers it otherwise */
  seen(key: string): boolean;
  get(key: string, version: string): Buffer | undefined;
  set(key: string, version: string, body: Buffer): void;
  /** diagnostics and tests */
  readonly stats: { hits: number; misses: number; bytes: number; entries: number };
}

export function createResponseCache(maxBytes: number): ResponseCache {
  const entries = new Map<string, Entry>();
  const once = new Set<string>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  const drop = (key: string, e: Entry) => {
    entries.delete(key);
    bytes -= e.body.length + key.length;
  };
  const remember = (key: string) => {
    if (once.size >= MAX_SEEN) once.delete(once.values().next().value!);
    once.add(key);
  };
  return {
    get stats() {
      return { hits, misses, bytes, entries: entries.size };
    },
    seen(key) {
      if (key.length > MAX_KEY_LENGTH) return false;
      if (entries.has(key) || once.has(key)) return true;
      remember(key);
      return false;
    },
    get(key, version) {
      const e = entries.get(key);
      if (!e || e.version !== version || Date.now() - e.at > TTL_MS) {
        // a stale entry's key stays known: its next answer is stored again
        if (e) {
          drop(key, e);
          remember(key);
        }
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
      once.delete(key);
      entries.set(key, { version, at: Date.now(), body });
      bytes += size;
    },
  };
}
