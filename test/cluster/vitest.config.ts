import { defineConfig } from 'vitest/config';

/**
 * The tests that start PostgreSQL clusters of their own (test/cluster/pg-cluster.ts): kept out of
 * `npm test` (vitest.config.ts excludes the folder) and run by `.ci/run` through this file:
 * `npx vitest run --config test/cluster/vitest.config.ts`. One file at a time: each starts two servers.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    // no server outlives its test file, nor a killed test process (pg-cluster.ts)
    globalSetup: ['test/cluster/global-setup.ts'],
    setupFiles: ['test/cluster/setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
