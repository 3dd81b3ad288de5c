import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from '../../src/serve/heap-growth.js';

describe('boundHeapGrowth', () => {
  it('bounds the growth unless the command line or NODE_OPTIONS already chose it', () => {
    expect(boundHeapGrowth(['--max-semi-space-size=16'], '')).toBe(true);
    expect(boundHeapGrowth(['--heap-growing-percent=50'], '')).toBe(false);
    expect(boundHeapGrowth([], '--enable-source-maps --heap_growing_percent=300')).toBe(false);
  });
});
