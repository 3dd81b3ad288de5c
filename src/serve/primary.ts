/**
 * The primary process of `serve --workers N` (node:cluster). It does the once-only work before
 * any worker exists - migrations, content types, the first superuser, the demo network of
 * `--demo` - so workers never race them, then forks N workers that share its listening socket, prints the greeting once all listen
 * (with the generated password, once), restarts a worker that dies (restart-backoff.ts), answers
 * /metrics scrapes for the whole service (http/metrics/cluster-scrape.ts), and on SIGTERM /
 * SIGINT drains every worker and exits 0 once they have; a second signal kills them and exits 1.
 * It serves no request and holds no database connection once the workers run.
 */
import cluster, { type Worker } from 'node:cluster';
import { resolve } from 'node:path';
import type pino from 'pino';
import { collectDefaultMetrics, Registry as PromRegistry } from 'prom-client';
import { buildApp } from '../app.js';
import { bootstrapAdmin, openPreparedDatabase } from '../bootstrap.js';
import type { Config } from '../config.js';
import { formatGreeting, type GreetingFacts } from '../greeting.js';
import { serveClusterScrapes } from '../http/metrics/cluster-scrape.js';
import { DRAIN_MESSAGE } from './cluster-worker.js';
import { loadDemoAtStart } from './demo-at-start.js';
import { DRAIN_TIMEOUT_MS, STOP_SIGNALS } from './graceful-stop.js';
import { servingProcessEnv } from './malloc-arenas.js';
import type { ServeOptions } from './index.js';
import { nextRestartDelay, type RestartState } from './restart-backoff.js';

interface Slot extends RestartState {
  /** 1..N, the `worker` label of the per-worker metrics */
  index: number;
  worker: Worker | null;
  startedAt: number;
  restartTimer: NodeJS.Timeout | null;
}

type Address = GreetingFacts['addresses'][number];

export async function runPrimary(
  config: Config,
  count: number,
  log: pino.Logger,
  opts: ServeOptions = {},
): Promise<void> {
  const { db, origin, applied } = await openPreparedDatabase(config);
  if (applied.length > 0) log.info({ applied: applied.length }, 'applied migrations');
  // PgBouncer mode (docs/postgresql.md, "PgBouncer"): said once here, not once per worker
  for (const notice of db.notices) log.warn(notice);
  const admin = await bootstrapAdmin(db, config)
    .then(async (created) => {
      // `--demo`: loaded once, here, before any worker serves (an app of its own, closed after)
      if (opts.demo) {
        const app = await buildApp(config, { db, logger: log, eventWorker: false });
        await loadDemoAtStart(app, db, log).finally(() => app.close());
      }
      return created;
    })
    .finally(() => db.close());
  if (admin)
    log.info(
      { username: admin.username, generatedPassword: admin.generatedPassword !== null },
      'created the first superuser',
    );

  const slots: Slot[] = Array.from({ length: count }, (_, i) => ({
    index: i + 1,
    worker: null,
    startedAt: 0,
    restartTimer: null,
    quickFailures: 0,
  }));
  let stopping = false;
  let everListened = false;
  let restarts = 0;
  let unclean = false;
  const listening = new Set<number>();
  let greeted = false;
  const addresses: Address[] = [];

  const own = new PromRegistry();
  collectDefaultMetrics({ register: own });
  serveClusterScrapes(cluster, {
    configured: count,
    own,
    restarts: () => restarts,
    *workers() {
      for (const s of slots) if (s.worker) yield { slot: s.index, worker: s.worker };
    },
  });

  const greet = () => {
    greeted = true;
    process.stderr.write(
      formatGreeting({
        addresses,
        engine: 'postgres',
        dataDir: resolve(config.dataDir),
        origin,
        startSeconds: process.uptime(),
        admin: admin?.generatedPassword ? { username: admin.username, password: admin.generatedPassword } : null,
        workers: count,
      }),
    );
  };

  const fork = (slot: Slot) => {
    slot.restartTimer = null;
    slot.startedAt = Date.now();
    const worker = cluster.fork(servingProcessEnv());
    slot.worker = worker;
    worker.once('listening', (a) => {
      everListened = true;
      listening.add(slot.index);
      if (addresses.length === 0)
        addresses.push({
          address: a.address ?? config.host,
          family: a.addressType === 6 ? 'IPv6' : 'IPv4',
          port: a.port,
        });
      if (!greeted && listening.size === count) greet();
    });
    worker.once('exit', (code, signal) => onExit(slot, worker, code, signal));
  };

  const onExit = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    slot.worker = null;
    listening.delete(slot.index);
    if (stopping) {
      if (code !== 0) unclean = true;
      if (slots.every((s) => s.worker === null)) process.exit(unclean ? 1 : 0);
      return;
    }
    const pid = worker.process.pid;
    if (!everListened) {
      // no worker has ever started: a setting or the database is wrong, and restarting will not help
      log.error({ worker: slot.index, workerPid: pid, code, signal }, 'a worker process could not start; stopping');
      stopAll('startup failure', true);
      return;
    }
    const delayMs = nextRestartDelay(slot, Date.now() - slot.startedAt);
    restarts++;
    log.error(
      { worker: slot.index, workerPid: pid, code, signal, restartInMs: delayMs },
      'a worker process ended unexpectedly; starting another',
    );
    slot.restartTimer = setTimeout(() => fork(slot), delayMs);
  };

  /** asks every worker to drain; exits once all have ended (or at once with 1 if `kill`) */
  const stopAll = (reason: string, failed = false) => {
    if (stopping) return;
    stopping = true;
    unclean = failed;
    log.info({ reason }, 'stopping the worker processes after their requests in flight');
    for (const s of slots) {
      if (s.restartTimer) clearTimeout(s.restartTimer);
      s.restartTimer = null;
      if (s.worker?.isConnected()) s.worker.send({ type: DRAIN_MESSAGE });
      else s.worker?.process.kill('SIGTERM');
    }
    if (slots.every((s) => s.worker === null)) process.exit(unclean ? 1 : 0);
    // the workers' own drain ends at DRAIN_TIMEOUT_MS; this is for one that hangs beyond it
    setTimeout(() => killAll('the workers did not stop in time'), DRAIN_TIMEOUT_MS + 5_000).unref();
  };

  const killAll = (why: string) => {
    log.error(`${why}; killing the worker processes`);
    for (const s of slots) s.worker?.process.kill('SIGKILL');
    process.exit(1);
  };

  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => (stopping ? killAll(`second ${signal}`) : stopAll(signal)));
  }
  for (const slot of slots) fork(slot);
}
