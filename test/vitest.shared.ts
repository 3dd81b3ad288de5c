import { readdirSync } from 'node:fs';
import { configDefaults } from 'vitest/config';
import type { TestUserConfig } from 'vitest/config';

/**
 * The test options every project of `npm test` shares (vitest.config.ts), and which files each
 * project runs.
 */
export const sharedTest = {
  globalSetup: ['test/helpers/global-setup.ts'],
  // tests that start PostgreSQL clusters of their own run apart (test/cluster/vitest.config.ts)
  exclude: [...configDefaults.exclude, 'test/cluster/**'],
  pool: 'forks',
  // three workers on two cores: part of the suite waits (timers, child processes, a browser), and
  // a third worker fills that time (the PGlite run: 625 s with two, 512 with three)
  maxWorkers: 3,
  // a worker keeps its modules from one file to the next instead of importing the service again
  // for each (the PGlite run spent 196 s importing; 512 s -> 396 s). Each file still makes its own
  // app and database; module state is caches keyed by registry and model, and counters. A worker
  // serves one project only (vitest.config.ts), so its engine never changes under it.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  reporters: ['default'],
} satisfies TestUserConfig;

/** Every test file but test/pgbouncer/'s, which run only in the project behind PgBouncer. */
export const EVERY_FILE = { include: ['test/**/*.test.ts'], exclude: ['test/pgbouncer/**'] };

/**
 * What differs by engine, run on each engine (vitest.config.ts): the API core suite (the engine's
 * own tests: drivers, transactions, change notifications, replicas, partitions, counts, first
 * start) and the folders whose subject is the engine's processes and tools (webhook workers and
 * LISTEN, backup and restore, serve's worker processes, bulk SQL seeding and demo data). Every
 * other test reaches the database through the same engine layer as these, with the same SQL on
 * both, and runs once: the NetBox import, for one, writes through the service's write path.
 */
export const ENGINE_SUITES = [
  'test/api/core/**/*.test.ts',
  'test/events/**/*.test.ts',
  'test/backup/**/*.test.ts',
  'test/serve/**/*.test.ts',
  'test/api/bench/**/*.test.ts',
  'test/api/demo-data*.test.ts',
];

/**
 * The API core suite's sweeps: the hostile-input sweep (45,000 requests), the OpenAPI sweep (each
 * documented filter of every list) and the strict filters (each kind of filter value refused).
 * They prove the service's validation and its document, the same code on every engine, driver and
 * build, and run once, on PostgreSQL through tsx (the first two: 84 CPU s there, 96 on PGlite).
 */
export const SWEEPS = [
  'test/api/core/hostile-input/**',
  'test/api/core/openapi.test.ts',
  'test/api/core/strict-filters.test.ts',
];

/** The API core suite but its sweeps, as exclude patterns: each entry of its folder but theirs. */
export const CORE_BUT_SWEEPS = readdirSync(new URL('api/core/', import.meta.url), { withFileTypes: true })
  .map((entry) => `test/api/core/${entry.name}${entry.isDirectory() ? '/**' : ''}`)
  .filter((pattern) => !SWEEPS.includes(pattern));

/**
 * What runs against the built bundle, the service as it ships: the API core suite but its sweeps,
 * and the contract suite.
 */
export const BUNDLE_SUITES = { include: ['test/api/core/**/*.test.ts', 'test/contract/**/*.test.ts'], exclude: SWEEPS };

/**
 * The API core suite as a test of how the service drives PostgreSQL, for the runs that change only
 * that: plain pg (`PG_DRIVER_PATCHES=off`, src/db/pg-driver/README.md) and PgBouncer. Without the
 * sweeps, nor first-start, whose databases are its own whatever the run (PGlite on disk; a
 * PostgreSQL database opened with the default settings).
 */
export const DRIVER_SUITES = {
  include: ['test/api/core/**/*.test.ts'],
  exclude: [...SWEEPS, 'test/api/core/first-start.test.ts'],
};
