/**
 * Values on the wire to and from PostgreSQL: timestamps as NetBox shows them, and id arrays sent as
 * array literals (both on the path of every page; db/type-parsers.ts, db/pg-driver/id-arrays.ts).
 */
import { describe, expect, it } from 'vitest';
import { idArrayLiteral } from '../../src/db/pg-driver/id-arrays.js';
import { parseTimestamptz } from '../../src/db/type-parsers.js';

describe('parseTimestamptz', () => {
  it('gives ISO 8601 in UTC, microseconds kept', () => {
    expect(parseTimestamptz('2026-11-22 07:10:19.881234+00')).toBe('2026-11-22T07:10:19.881234Z');
    expect(parseTimestamptz('2026-11-22 07:10:19+00')).toBe('2026-11-22T07:10:19Z');
    // PostgreSQL drops a fraction's trailing zeros; NetBox (Python) prints six digits
    expect(parseTimestamptz('2026-11-22 07:10:19.345+00')).toBe('2026-11-22T07:10:19.345000Z');
    expect(parseTimestamptz('2026-11-22 07:10:19.5+00:00')).toBe('2026-11-22T07:10:19.500000Z');
    expect(parseTimestamptz('2026-11-22 07:10:19+00:00')).toBe('2026-11-22T07:10:19Z');
  });
  it('leaves what is not a four-digit-year UTC timestamp to the general rewrite', () => {
    expect(parseTimestamptz('infinity')).toBe('infinity');
    expect(parseTimestamptz('12345-01-01 00:00:00+00')).toBe('12345-01-01T00:00:00Z');
  });
});

describe('idArrayLiteral', () => {
  it('writes an array of integers as its PostgreSQL literal', () => {
    expect(idArrayLiteral([1, 22, 333])).toBe('{1,22,333}');
    expect(idArrayLiteral([-5, 0])).toBe('{-5,0}');
  });
  it('leaves every other value to the driver', () => {
    for (const v of [[], ['a'], [1.5], [2 ** 60], [1, null], [1, '2'], null, 'x', 7]) expect(idArrayLiteral(v)).toBe(v);
  });
});
