/**
 * Request ids are version 7 UUIDs (src/http/request-id.ts): the time first, so the change log's
 * index on them takes new records at its end, and random bits after.
 */
import { describe, expect, it } from 'vitest';
import { requestId } from '../../src/http/request-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('are UUIDs of version 7 and the RFC variant, with the time in their first 48 bits', () => {
    const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const id = requestId(at);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(requestId(0).slice(0, 13)).toBe('00000000-0000');
  });

  it('sort by time as text and differ within one millisecond', () => {
    const at = Date.now();
    const ids = [requestId(at - 86_400_000), requestId(at - 1), requestId(at), requestId(at + 1)];
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => requestId(at)));
    expect(same.size).toBe(1000);
    for (const id of same) expect(id).toMatch(V7);
  });
});
