/** The config context merge (NetBox 3.4 deepmerge semantics), without a database. */
import { describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/apps/extras/deep-merge.js';

describe('deepMerge', () => {
  it('merges objects key by key and lets later scalars and lists win', () => {
    expect(deepMerge({ a: 1, n: { x: 1, y: [1] } }, { b: 2, n: { y: [2], z: 3 } })).toEqual({
      a: 1,
      b: 2,
      n: { x: 1, y: [2], z: 3 },
    });
  });

  it('replaces with an empty object, a list or a scalar rather than merging', () => {
    expect(deepMerge({ n: { x: 1 }, m: { x: 1 }, s: { x: 1 } }, { n: {}, m: [1], s: null })).toEqual({
      n: {},
      m: [1],
      s: null,
    });
    expect(deepMerge({ n: 1 }, { n: { x: 1 } })).toEqual({ n: { x: 1 } });
  });

  it('keeps the earlier key order, appends new keys, and modifies neither argument', () => {
    const earlier = { a: 1, n: { x: 1 } };
    const later = { c: 3, a: 2, n: { y: 2 } };
    const out = deepMerge(earlier, later);
    expect(Object.keys(out)).toEqual(['a', 'n', 'c']);
    expect(earlier).toEqual({ a: 1, n: { x: 1 } });
    expect(later).toEqual({ c: 3, a: 2, n: { y: 2 } });
  });

  it('treats a "__proto__" key as data', () => {
    const out = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
