/**
 * The command line: `serve` (default), `worker` (webhook deliveries only), `migrate`,
 * `createsuperuser <username> [--password P] [--token KEY]`, `demo-data`, `webhook-receiver
 * [--port 9000] [--no-headers]`. Settings come from the environment (see config.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { bootstrapAdmin, createSuperuser, prepareDatabase } from './bootstrap.js';
import { loadConfig } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { loadDemoData } from './demo-data.js';
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

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  const config = loadConfig();
  if (command === 'webhook-receiver') {
    // needs no database
    const port = Number(flag(args, '--port') ?? 9000);
    await startWebhookReceiver({ host: config.host, port, headers: !args.includes('--no-headers'), print: (line) => console.log(line) });
    console.log(`Listening on http://${config.host}:${port}/ for webhook requests; Ctrl-C to stop.`);
    return;
  }
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeout: config.statementTimeout });
  switch (command) {
    case 'migrate': {
      const applied = await prepareDatabase(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
      await db.close();
      return;
    }
    case 'createsuperuser': {
      const username = args.find((a) => !a.startsWith('--')) ?? config.adminUsername;
      if (!username) throw new Error('usage: inventory createsuperuser <username> [--password P] [--token KEY]');
      await prepareDatabase(db);
      const password = flag(args, '--password') ?? config.adminPassword ?? randomBytes(12).toString('base64url');
      await createSuperuser(db.kysely, username, password, flag(args, '--token') ?? null);
      console.log(`Superuser "${username}" ready${flag(args, '--password') || config.adminPassword ? '' : ` with password: ${password}`}`);
      await db.close();
      return;
    }
    case 'demo-data': {
      await prepareDatabase(db);
      const app = await buildApp({ ...config, logLevel: 'warn' }, { db });
      await loadDemoData(app, db, (line) => console.log(line));
      await app.close();
      await db.close();
      return;
    }
    case 'serve': {
      await prepareDatabase(db);
      const notice = await bootstrapAdmin(db, config);
      const app = await buildApp(config, { db, eventWorker: config.events.workerInProcess });
      if (notice) app.log.warn(notice);
      process.once('SIGTERM', () => void drainAndExit(app, db, 'SIGTERM'));
      process.once('SIGINT', () => void drainAndExit(app, db, 'SIGINT'));
      await app.listen({ host: config.host, port: config.port });
      return;
    }
    case 'worker': {
      // webhook deliveries only, no HTTP: run as many as needed against one PostgreSQL
      await prepareDatabase(db);
      const app = await buildApp({ ...config, events: { ...config.events, workerInProcess: false } }, { db, eventWorker: true });
      app.log.info('webhook worker started');
      process.once('SIGTERM', () => void drainAndExit(app, db, 'SIGTERM'));
      process.once('SIGINT', () => void drainAndExit(app, db, 'SIGINT'));
      return;
    }
    default:
      throw new Error(`unknown command ${command}; use serve, worker, migrate, createsuperuser, demo-data or webhook-receiver`);
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
