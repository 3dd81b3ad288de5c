/**
 * Totals of list queries, cached per process. A list page's `count` is a second scan of every
 * matching row, the dominant cost of a page on a large table (DESIGN: Performance habits), and
 * clients that walk a result set page by page (pynetbox, Ansible) ask for the same total again
 * with every offset. An entry is keyed by the count statement's SQL and parameters (the filters
 * and the user's permission scope included) and versioned like every cache (cache-version.ts): a
 * cached read's data version, else the data generation.
 */
import { createVersionedCache, type VersionedCache } from './versioned-cache.js';

/** filters come from clients: the number of totals kept is bounded */
const MAX_ENTRIES = 5_000;

export type CountCache = VersionedCache<number>;

export function createCountCache(): CountCache {
  return createVersionedCache<number>({ max: MAX_ENTRIES });
}
