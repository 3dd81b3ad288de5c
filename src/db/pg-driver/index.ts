/**
 * The PostgreSQL pool: plain pg, or pg with the driver's patches (README.md). The one switch is
 * PG_DRIVER_PATCHES (src/config.ts); both pools share every setting that changes what the service
 * answers (the type parsers, the time zone, the statement timeout), so the API answers the same.
 */
import pg from 'pg';
import { typeParsers } from '../type-parsers.js';
import { DriverClient } from './driver-client.js';
import { StatementNames } from './statement-name.js';
import { withStartupTimeZone } from './pgbouncer.js';

export { COMMIT_FOLLOWS } from './commit-follows.js';

export interface PgPoolOptions {
  url: string;
  max: number;
  /** seconds before the server cancels a statement; 0 = none */
  statementTimeoutSec: number;
  /** false: plain pg, nothing of this folder but the settings below */
  patches: boolean;
  /**
   * the URL leads to a transaction-pooling PgBouncer (pgbouncer.ts): no named statements, no
   * `options` or `statement_timeout` in the startup packet
   */
  pgbouncer?: boolean;
}

/** a pool that cannot hand out a connection in this time answers 503 rather than keep the request waiting */
const CONNECT_TIMEOUT_MS = 10_000;

export function openPgPool({ url, max, statementTimeoutSec, patches, pgbouncer = false }: PgPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // PgBouncer refuses `options` and `statement_timeout` at startup (pgbouncer.ts says what replaces them)
    ...(pgbouncer ? {} : { options: '-c TimeZone=UTC' }),
    // one pathological statement cannot hold a connection forever (errors.ts: statementTimeout)
    ...(statementTimeoutSec > 0 && !pgbouncer
      ? { statement_timeout: Math.max(1, Math.round(statementTimeoutSec * 1000)) }
      : {}),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // a server that vanished without closing the socket is found out by the kernel
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
    // pg-pool's documented `Client` option, and pg 8.23's pipeline mode (not yet in its type
    // definitions): a client writes a statement without waiting for the answer to the one before
    // (pg-pool hands its options to each client it makes: the pool's statement names reach them all)
    ...(patches
      ? ({
          Client: pgbouncer ? withStartupTimeZone(DriverClient) : DriverClient,
          pipeline: true,
          // a name prepared on one server connection is unknown on the next PgBouncer lends
          statementNames: new StatementNames(!pgbouncer),
        } as unknown as pg.PoolConfig)
      : pgbouncer
        ? { Client: withStartupTimeZone(pg.Client) }
        : {}),
  });
  // an idle connection the server drops (restart, failover, terminated backend) emits 'error' on
  // the pool; without a listener Node would crash. The pool replaces it on the next checkout.
  pool.on('error', () => undefined);
  // a backend that dies while its client is checked out emits 'error' on the client, which pg-pool
  // only listens to while it is idle: unheard, it would crash the process. The query in flight
  // fails on its own (a 503), and pg-pool drops the broken client when it is released.
  pool.on('connect', (client) => void client.on('error', () => undefined));
  return pool;
}
