/**
 * PgBouncer in transaction pooling for the run (pgbouncer.ts), named to the test apps through
 * `inject('pgbouncer')`: test/helpers/app.ts then gives each app its database through PgBouncer as
 * DATABASE_URL and the server itself as DATABASE_DIRECT_URL (docs/postgresql.md, "PgBouncer").
 */
import type { TestProject } from 'vitest/node';
import { startPgbouncer } from './pgbouncer.js';

/**
 * Server connections per test database: fewer than a test app's pool (4, test/helpers/app.ts), so
 * its connections share them as a service's do behind a busy PgBouncer.
 */
export const BOUNCER_POOL_SIZE = 2;

export default async function setup(project: TestProject) {
  const bouncer = await startPgbouncer(BOUNCER_POOL_SIZE);
  project.provide('pgbouncer', bouncer.url(''));
  return () => bouncer.stop();
}
