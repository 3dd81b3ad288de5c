/**
 * The command line: `serve [--workers N]` (default), `worker` (webhook deliveries only), `migrate`,
 * `createsuperuser <username> [--password P] [--token KEY]`, `demo-data [--url URL --token KEY]`
 * (into a running service over HTTP with --url; `serve --demo` loads it at start), `snapshot`,
 * `backup FILE`, `restore FILE [--force]` (src/backup/README.md),
 * `import-netbox --url URL --token KEY [--continue-on-error] [--no-check]` (src/import-netbox/README.md),
 * `webhook-receiver [--port 9000] [--no-headers]`, `openapi [json|legacy|yaml] [3.4|4.4]` (prints the OpenAPI
 * document; the server runs it to make the document apart: core/openapi/documents.ts). Settings come
 * from the environment (see config.ts).
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from './app.js';
import { allModels } from './apps/index.js';
import { backupCommand, restoreCommand } from './backup/commands.js';
import { importNetboxCommand } from './import-netbox/command.js';
import { DOCUMENT_FORMS, type DocumentForm, documentText } from './core/openapi/documents.js';
import { DIALECTS, isDialect } from './core/model/dialect.js';
import { documentOptions } from './http/api-docs.js';
import { createSuperuser, ensureSnapshot, openPreparedDatabase } from './bootstrap.js';
import { type Config, loadConfig } from './config.js';
import { snapshotSize } from './db/pglite-snapshot.js';
import { loadDemoData, loadDemoNetwork } from './demo-data.js';
import { httpRequest } from './demo-data-client.js';
import { createLogger } from './logger.js';
import { startWebhookReceiver } from './core/events/receiver.js';
import { stopOnSignals } from './serve/graceful-stop.js';
import { serve } from './serve/index.js';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
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
  console.log(
    `PGlite snapshot ${built ? 'built' : 'already there'}: ${path} (${mb} MB, and as much again for its spare copy; ${took} s); a new DATA_DIR starts from it.`,
  );
}

/** `worker`: webhook deliveries only, no HTTP; run as many as needed against one PostgreSQL. */
async function worker(config: Config): Promise<void> {
  const { db } = await openPreparedDatabase(config);
  const app = await buildApp(
    { ...config, events: { ...config.events, workerInProcess: false } },
    { db, logger: createLogger(config), eventWorker: true },
  );
  for (const notice of db.notices) app.log.warn(notice);
  app.log.info('webhook worker started');
  stopOnSignals(app, db, true);
}

/** `webhook-receiver`: prints what it receives (spec: Delivery 4); needs no database. */
async function webhookReceiver(config: Config, args: string[]): Promise<void> {
  const port = Number(flag(args, '--port') ?? 9000);
  await startWebhookReceiver({
    host: config.host,
    port,
    headers: !args.includes('--no-headers'),
    print: (line) => console.log(line),
  });
  console.log(`Listening on http://${config.host}:${port}/ for webhook requests; Ctrl-C to stop.`);
}

/**
 * `openapi [json|legacy|yaml] [3.4|4.4]`: prints the OpenAPI document of an API dialect (legacy: NetBox
 * 3.4's /api/docs/?format=openapi layout); needs no database.
 */
async function openapiCommand(args: string[]): Promise<void> {
  const form = (args[0] ?? 'json') as DocumentForm;
  if (!DOCUMENT_FORMS.includes(form))
    throw new Error(`openapi: unknown form ${form}; use ${DOCUMENT_FORMS.join(', ')}`);
  const dialect = args[1] ?? '3.4';
  if (!isDialect(dialect)) throw new Error(`openapi: unknown API dialect ${dialect}; use ${DIALECTS.join(', ')}`);
  const { registry, special } = allModels();
  const text = documentText({ ...documentOptions(registry, special.docs), dialect }, form);
  await new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

/** `demo-data --url URL --token KEY`: into a service that runs, through its API (no database opened here) */
async function demoDataOverHttp(args: string[]): Promise<void> {
  const url = flag(args, '--url')!;
  const token = flag(args, '--token');
  if (!token)
    throw new Error('usage: inventory demo-data --url http://127.0.0.1:8000 --token <key of a token that may write>');
  await loadDemoNetwork(httpRequest(url, token), (line) => console.log(line));
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  // `serve --workers N` wins over WORKERS; read like every setting, in loadConfig
  const workersFlag = command === 'serve' ? flag(args, '--workers') : undefined;
  const config = loadConfig(undefined, workersFlag === undefined ? {} : { WORKERS: workersFlag });
  if (command === 'serve') return serve(config, { demo: args.includes('--demo') });
  if (command === 'worker') return worker(config);
  if (command === 'webhook-receiver') return webhookReceiver(config, args);
  if (command === 'snapshot') return snapshotCommand(config);
  if (command === 'openapi') return openapiCommand(args);
  if (command === 'backup') return backupCommand(config, args);
  if (command === 'restore') return restoreCommand(config, args);
  if (command === 'import-netbox') return importNetboxCommand(config, args);
  if (command === 'demo-data' && flag(args, '--url')) return demoDataOverHttp(args);
  if (!['migrate', 'createsuperuser', 'demo-data'].includes(command)) {
    throw new Error(
      `unknown command ${command}; use serve, worker, migrate, createsuperuser, demo-data, backup, restore, import-netbox, snapshot, webhook-receiver or openapi`,
    );
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
      console.log(
        `Superuser "${username}" ready${flag(args, '--password') || config.adminPassword ? '' : ` with password: ${password}`}`,
      );
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
