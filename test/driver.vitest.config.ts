import { configDefaults, defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

/**
 * The API core suite as a test of how the service drives PostgreSQL, for the runs that change only
 * that: plain pg (`PG_DRIVER_PATCHES=off`, src/db/pg-driver/README.md) and PgBouncer
 * (test/pgbouncer/vitest.config.ts). Left out, as they have already run on both engines:
 * - the hostile-input sweep (45,000 requests) and the OpenAPI sweep (each documented filter of
 *   every list): they prove the service's validation and its document, which the driver does not
 *   touch;
 * - first-start: its databases are its own whatever the run (PGlite on disk; a PostgreSQL database
 *   opened with the default settings), so another run repeats the same work.
 */
export const DRIVER_INDEPENDENT = [
  'test/api/core/hostile-input/**',
  'test/api/core/openapi.test.ts',
  'test/api/core/first-start.test.ts',
];

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/api/core/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...DRIVER_INDEPENDENT],
  },
});
