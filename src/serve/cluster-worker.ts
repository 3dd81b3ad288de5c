/**
 * One worker process of `serve --workers N` (primary.ts forks it). The primary has migrated the
 * database and created the first superuser, so this process only opens the database, builds the
 * app and listens: node:cluster hands the primary's one listening socket to every worker.
 *
 * Stopping: the primary sends DRAIN (it got SIGTERM / SIGINT); a signal to this process drains
 * too (Ctrl-C in a terminal reaches the whole process group), but never forces: forcing is the
 * primary's (its second signal kills the workers). If the primary dies, Node's cluster code ends
 * this process as soon as the IPC channel closes, so no worker outlives it.
 */
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import type pino from 'pino';
import { stopOnSignals } from './graceful-stop.js';

export const DRAIN_MESSAGE = 'inventory:drain';

export async function runClusterWorker(config: Config, log: pino.Logger): Promise<void> {
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeout: config.statementTimeout,
    poolSize: config.databasePoolSize,
    driverPatches: config.pgDriverPatches,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.databaseReplicaMaxLagMs,
    pgbouncer: config.databasePgbouncer,
    directUrl: config.databaseDirectUrl,
  });
  // every worker runs a webhook worker (src/serve/README.md): claims are SKIP LOCKED, so they share
  const app = await buildApp(config, {
    db,
    logger: log,
    eventWorker: config.events.workerInProcess,
    clusterWorker: true,
  });
  const stop = stopOnSignals(app, db, false);
  process.on('message', (m: { type?: string } | null) => {
    if (m?.type === DRAIN_MESSAGE) stop('the primary process is stopping');
  });
  await app.listen({ host: config.host, port: config.port });
}
