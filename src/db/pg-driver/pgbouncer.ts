/**
 * What a pool behind PgBouncer in transaction pooling sends differently (docs/postgresql.md,
 * "PgBouncer"). PgBouncer 1.18 lends a server connection for one transaction at a time, so nothing
 * may outlive a transaction on it:
 *
 * - no named prepared statements: a name prepared on one server connection is unknown on the next
 *   (PgBouncer 1.21 was the first to track them); statement-name.ts names none, and described-once.ts
 *   only keeps descriptions of named statements;
 * - no `options` and no `statement_timeout` in the startup packet: PgBouncer refuses the connection
 *   ("unsupported startup parameter") unless told to ignore them, and ignoring would drop them;
 * - the time zone travels as the startup parameter `TimeZone` instead, one of the few PgBouncer keeps
 *   per client and sets on each server connection it lends (PgBouncer docs: ignore_startup_parameters).
 *   The row parsers rely on UTC (type-parsers.ts). pg sends no such parameter of its own, so the
 *   client class adds it to the startup message pg builds;
 * - the statement timeout is the server's default for the role or database (the operator's
 *   `ALTER ROLE ... SET statement_timeout`); client.ts checks it at start and says so when it
 *   differs from STATEMENT_TIMEOUT.
 */
import type pg from 'pg';

interface StartupConf {
  getStartupConf(): Record<string, string>;
}

/** `Base` (pg's Client or the driver's) with `TimeZone=UTC` in its startup message */
export function withStartupTimeZone<T extends abstract new (...args: never[]) => unknown>(Base: T): typeof pg.Client {
  const B = Base as unknown as new (...args: unknown[]) => StartupConf;
  class StartupTimeZone extends B {
    override getStartupConf(): Record<string, string> {
      return { ...super.getStartupConf(), TimeZone: 'UTC' };
    }
  }
  return StartupTimeZone as unknown as typeof pg.Client;
}
