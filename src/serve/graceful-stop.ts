/**
 * Stopping a serving process gracefully: stop accepting connections, let the requests in flight
 * finish (http/drain.ts), close the database (PGlite writes its files out), exit 0. A drain longer
 * than DRAIN_TIMEOUT_MS exits at once with 1: whatever was not committed is rolled back by the
 * database, as after a kill.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { requestsSettled } from '../http/drain.js';

/** a drain that has not finished by then ends the process anyway (a request stuck on a dead peer) */
export const DRAIN_TIMEOUT_MS = 30_000;

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Drains `app`, closes `db` and exits the process (0, or 1 when the drain failed or took too long). */
async function drainAndExit(app: FastifyInstance, db: Database, reason: string): Promise<void> {
  app.log.info({ reason }, 'draining requests in flight, then stopping');
  const timer = setTimeout(
    () => exitNow(app, `drain took longer than ${DRAIN_TIMEOUT_MS / 1000} s; stopping now`),
    DRAIN_TIMEOUT_MS,
  );
  try {
    await app.close();
    // handlers whose client hung up outlive their connection (http/drain.ts)
    await requestsSettled(app);
    await db.close();
  } catch (err) {
    exitNow(app, `stopping failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  clearTimeout(timer);
  process.exit(0);
}

function exitNow(app: FastifyInstance, why: string): never {
  app.log.error(why);
  process.exit(1);
}

/**
 * The first SIGTERM / SIGINT drains; with `secondForces`, a later one exits at once with 1. Returns
 * the drain's starter for other reasons to stop (the cluster primary's request); it runs once.
 */
export function stopOnSignals(app: FastifyInstance, db: Database, secondForces: boolean): (reason: string) => void {
  let draining = false;
  const begin = (reason: string) => {
    if (draining) return;
    draining = true;
    void drainAndExit(app, db, reason);
  };
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (!draining) begin(signal);
      else if (secondForces) exitNow(app, `second ${signal}; stopping now`);
    });
  }
  return begin;
}
