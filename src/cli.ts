/**
 * The command line: `serve` (default), `worker` (webhook deliveries only), `migrate`,
 * `createsuperuser <username> [--password P] [--token KEY]`, `demo-data`, `snapshot`,
 * `webhook-receiver [--port 9000] [--no-headers]`. Settings come from the environment (see config.ts).
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { bootstrapAdmin, createSuperuser, ensureSnapshot, openPreparedDatabase } from './bootstrap.js';
import { type Config, loadConfig } from './config.js';
import type { Database } from './db/client.js';
import { snapshotSize } from './db/pglite-snapshot.js';
import { loadDemoData } from './demo-data.js';
import { formatGreeting } from './greeting.js';
import { createLogger } from './logger.js';
import { startWebhookReceiver } from './core/events/receiver.js';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** a drain that has not finished by then ends the process anyway (a request stuck on a dead peer) */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * SIGTERM / SIGINT: stop accepting connections, let the requests in flight finish (http/drain.ts),
 * close the database (PGlite writes its files out), exit 0. A second signal, or a drain longer
 * than DRAIN_TIMEOUT_MS, exits at once with 1: whatever was not committed is rolled back by the
 * database, as after a kill.
 */
async function drainAndExit(app: FastifyInstance, db: Database, signal: string): Promise<void> {
  app.log.info({ signal }, 'draining requests in flight, then stopping');
  const force = (why: string) => {
    app.log.error(why);
    process.exit(1);
  };
  const timer = setTimeout(() => force(`drain took longer than ${DRAIN_TIMEOUT_MS / 1000} s; stopping now`), DRAIN_TIMEOUT_MS);
  process.once(signal, () => force(`second ${signal}; stopping now`));
  try {
    await app.close();
    await db.close();
  } catch (err) {
    force(`stopping failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  clearTimeout(timer);
  process.exit(0);
}

/** `snapshot`: builds the PGlite snapshot for this code unless it is there and whole (npm postinstall runs it). */
async function snapshotCommand(config: Config): Promise<void> {
  if (!config.pgliteSnapshot) {
    console.log('PGLITE_SNAPSHOT is off: no snapshot built.');
    return;
  }
  const started = performance.now();
  const { path, key, built } = await ensureSnapshot(config.pgliteSnapshotDir);
  const mb = (snapshotSize(config.pgliteSnapshotDir, key) / 1e6).toFixed(1);
  const took = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`PGlite snapshot ${built ? 'built' : 'already there'}: ${path} (${mb} MB, and as much again for its spare copy; ${took} s); a new DATA_DIR starts from it.`);
}

async function serve(config: Config): Promise<void> {
  const log = createLogger(config);
  const { db, origin, snapshotProblem, afterStart } = await openPreparedDatabase(config);
  if (snapshotProblem) log.warn(snapshotProblem);
  // the password hash (scrypt) runs on libuv's threads while this one builds the app
  const creatingAdmin = bootstrapAdmin(db, config);
  creatingAdmin.catch(() => undefined);
  const app = await buildApp(config, { db, logger: log, eventWorker: config.events.workerInProcess });
  const admin = await creatingAdmin;
  // the password itself goes to the console only (greeting.ts), never into the log
  if (admin) app.log.info({ username: admin.username, generatedPassword: admin.generatedPassword !== null }, 'created the first superuser');
  process.once('SIGTERM', () => void drainAndExit(app, db, 'SIGTERM'));
  process.once('SIGINT', () => void drainAndExit(app, db, 'SIGINT'));
  await app.listen({ host: config.host, port: config.port });
  process.stderr.write(
    formatGreeting({
      addresses: app.addresses().filter((a) => typeof a !== 'string'),
      engine: db.engine,
      dataDir: resolve(config.dataDir),
      origin,
      startSeconds: process.uptime(),
      admin: admin?.generatedPassword ? { username: admin.username, password: admin.generatedPassword } : null,
    }),
  );
  afterStart().catch((err: Error) => app.log.warn(`no spare copy of the PGlite snapshot for the next new DATA_DIR: ${err.message}`));
}

/** `worker`: webhook deliveries only, no HTTP; run as many as needed against one PostgreSQL. */
async function worker(config: Config): Promise<void> {
  const { db } = await openPreparedDatabase(config);
  const app = await buildApp({ ...config, events: { ...config.events, workerInProcess: false } }, { db, logger: createLogger(config), eventWorker: true });
  app.log.info('webhook worker started');
  process.once('SIGTERM', () => void drainAndExit(app, db, 'SIGTERM'));
  process.once('SIGINT', () => void drainAndExit(app, db, 'SIGINT'));
}

/** `webhook-receiver`: prints what it receives (spec: Delivery 4); needs no database. */
async function webhookReceiver(config: Config, args: string[]): Promise<void> {
  const port = Number(flag(args, '--port') ?? 9000);
  await startWebhookReceiver({ host: config.host, port, headers: !args.includes('--no-headers'), print: (line) => console.log(line) });
  console.log(`Listening on http://${config.host}:${port}/ for webhook requests; Ctrl-C to stop.`);
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  const config = loadConfig();
  if (command === 'serve') return serve(config);
  if (command === 'worker') return worker(config);
  if (command === 'webhook-receiver') return webhookReceiver(config, args);
  if (command === 'snapshot') return snapshotCommand(config);
  if (!['migrate', 'createsuperuser', 'demo-data'].includes(command)) {
    throw new Error(`unknown command ${command}; use serve, worker, migrate, createsuperuser, demo-data, snapshot or webhook-receiver`);
  }
  const { db, applied } = await openPreparedDatabase(config);
  switch (command) {
    case 'migrate': {
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
      break;
    }
    case 'createsuperuser': {
      const username = args.find((a) => !a.startsWith('--')) ?? config.adminUsername;
      if (!username) throw new Error('usage: inventory createsuperuser <username> [--password P] [--token KEY]');
      const password = flag(args, '--password') ?? config.adminPassword ?? randomBytes(12).toString('base64url');
      await createSuperuser(db.kysely, username, password, flag(args, '--token') ?? null);
      console.log(`Superuser "${username}" ready${flag(args, '--password') || config.adminPassword ? '' : ` with password: ${password}`}`);
      break;
    }
    case 'demo-data': {
      const app = await buildApp({ ...config, logLevel: 'warn' }, { db });
      await loadDemoData(app, db, (line) => console.log(line));
      await app.close();
      break;
    }
  }
  await db.close();
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
