/**
 * A list's total through the count cache (core/cache/count-cache.ts), counted once per version:
 * the first request to count a total at a version lets the others arriving meanwhile wait for it.
 * When a total of a 1,000,000-address list expired, every request in flight scanned it again,
 * sixteen at once, and none finished within seconds.
 */
import type { RawBuilder } from 'kysely';
import { cacheVersion } from '../cache/cache-version.js';
import type { RequestContext } from '../context.js';

/** per app: the totals being counted now, by version and cache key (single flight) */
const counting = new WeakMap<object, Map<string, Promise<number>>>();

export interface CachedTotal {
  /** cached: `n` holds it; shared: another request is counting it (`shared`); uncounted: neither */
  state: 'cached' | 'shared' | 'uncounted';
  /** the cached total, if any */
  n: number | undefined;
  /** the same total being counted by another request now, if any */
  shared?: Promise<number>;
  store(n: number): void;
  /** done with the total (stored or not): a request waiting for it then counts on its own */
  settle(): void;
}

const UNCACHED: CachedTotal = { state: 'uncounted', n: undefined, store: () => undefined, settle: () => undefined };

/** The cached total of a count statement, and how to store it once counted. */
export function cachedTotal(rc: RequestContext, countSql: RawBuilder<{ n: number }>): CachedTotal {
  const version = rc.app.config.listCountCache ? cacheVersion(rc) : null;
  if (version === null) return UNCACHED;
  const compiled = countSql.compile(rc.q);
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  const store = (m: number) => rc.app.counts.set(key, version, m);
  const n = rc.app.counts.get(key, version);
  if (n !== undefined) return { ...UNCACHED, state: 'cached', n };
  let inFlight = counting.get(rc.app);
  if (!inFlight) counting.set(rc.app, (inFlight = new Map()));
  const flightKey = `${version}\u0000${key}`;
  const shared = inFlight.get(flightKey);
  if (shared) return { state: 'shared', n: undefined, shared, store, settle: () => undefined };
  let resolve!: (m: number) => void;
  let reject!: (e: Error) => void;
  const mine = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  mine.catch(() => undefined);
  inFlight.set(flightKey, mine);
  return {
    state: 'uncounted',
    n: undefined,
    store(m) {
      store(m);
      resolve(m);
    },
    settle() {
      if (inFlight.get(flightKey) === mine) inFlight.delete(flightKey);
      reject(new Error('not counted'));
    },
  };
}
