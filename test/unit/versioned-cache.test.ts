/**
 * The one freshness rule of every cache (core/cache/versioned-cache.ts): served only at the
 * version stored under, for at most five seconds, nothing without a version, bounded by lru-cache.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVersionedCache, TTL_MS } from '../../src/core/cache/versioned-cache.js';

afterEach(() => vi.useRealTimers());

describe('createVersionedCache', () => {
  it('serves an entry at its version only, and drops it once found stale', () => {
    const stale: string[] = [];
    const c = createVersionedCache<number>({ max: 10, onStale: (k) => stale.push(k) });
    c.set('k', 'v1', 1);
    expect(c.get('k', 'v1')).toBe(1);
    expect(c.get('k', 'v2')).toBeUndefined();
    expect(c.get('k', 'v1')).toBeUndefined();
    expect(stale).toEqual(['k']);
    expect(c.stats).toMatchObject({ hits: 1, misses: 2, entries: 0 });
  });

  it('forgets an entry after TTL_MS even at its version', () => {
    vi.useFakeTimers();
    const c = createVersionedCache<number>({ max: 10 });
    c.set('k', 'v', 1);
    vi.advanceTimersByTime(TTL_MS);
    expect(c.get('k', 'v')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(c.get('k', 'v')).toBeUndefined();
  });

  it('loads through the cache under the version given, and caches nothing without one', async () => {
    const c = createVersionedCache<number>({ max: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await c.through('k', 'v1', load)).toBe(1);
    expect(await c.through('k', 'v1', load)).toBe(1);
    expect(await c.through('k', 'v2', load)).toBe(2);
    expect(await c.through('k', null, load)).toBe(3);
    expect(await c.through('k', null, load)).toBe(4);
    expect(await c.through('k', 'v2', load)).toBe(2);
    // a failed load stores nothing
    await expect(c.through('x', 'v2', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(c.get('x', 'v2')).toBeUndefined();
  });

  it('keeps within its entry count and byte budget, least recently used out first', () => {
    const byCount = createVersionedCache<number>({ max: 2 });
    byCount.set('a', 'v', 1);
    byCount.set('b', 'v', 2);
    byCount.get('a', 'v');
    byCount.set('c', 'v', 3);
    expect(byCount.get('b', 'v')).toBeUndefined();
    expect(byCount.get('a', 'v')).toBe(1);
    const byBytes = createVersionedCache<string>({ maxBytes: 100, sizeOf: (k, v) => k.length + v.length });
    for (let i = 0; i < 10; i++) byBytes.set(`k${i}`, 'v', 'x'.repeat(28));
    expect(byBytes.stats.bytes).toBeLessThanOrEqual(100);
    expect(byBytes.stats.entries).toBe(3);
    expect(byBytes.get('k9', 'v')).toBeDefined();
  });
});
