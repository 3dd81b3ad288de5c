import { configDefaults, defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';
import { DRIVER_INDEPENDENT } from '../driver.vitest.config.js';

/**
 * The API core suite as a test of the driver (test/driver.vitest.config.ts) with each test app's DATABASE_URL through a
 * PgBouncer in transaction pooling (DATABASE_PGBOUNCER=true) and DATABASE_DIRECT_URL at the server
 * (docs/postgresql.md, "PgBouncer"), plus this folder's own tests. PostgreSQL only:
 * `DB=postgres npx vitest run --config test/pgbouncer/vitest.config.ts`
 */
export default defineConfig({
  test: {
    ...base.test,
    globalSetup: ['test/helpers/global-setup.ts', 'test/pgbouncer/global-setup.ts'],
    include: ['test/api/core/**/*.test.ts', 'test/pgbouncer/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...DRIVER_INDEPENDENT],
  },
});
