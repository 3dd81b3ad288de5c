/**
 * `serve` as one process (WORKERS=1, and always on PGlite): no cluster primary, no IPC, nothing
 * in the way of a request. Opens the database (migrations, PGlite snapshot), creates the first
 * superuser, loads the demo network when asked (`--demo`), listens, greets.
 */
import { resolve } from 'node:path';
import { buildApp } from '../app.js';
import { bootstrapAdmin, openPreparedDatabase } from '../bootstrap.js';
import type { Config } from '../config.js';
import { formatGreeting } from '../greeting.js';
import type pino from 'pino';
import { loadDemoAtStart } from './demo-at-start.js';
import { stopOnSignals } from './graceful-stop.js';
import type { ServeOptions } from './index.js';

export async function serveSingle(config: Config, log: pino.Logger, opts: ServeOptions = {}): Promise<void> {
  const { db, origin, snapshotProblem, afterStart } = await openPreparedDatabase(config);
  if (snapshotProblem) log.warn(snapshotProblem);
  // PgBouncer mode (docs/postgresql.md, "PgBouncer")
  for (const notice of db.notices) log.warn(notice);
  // the password hash (scrypt) runs on libuv's threads while this one builds the app
  const creatingAdmin = bootstrapAdmin(db, config);
  creatingAdmin.catch(() => undefined);
  const app = await buildApp(config, { db, logger: log, eventWorker: config.events.workerInProcess });
  const admin = await creatingAdmin;
  // the password itself goes to the console only (greeting.ts), never into the log
  if (admin)
    app.log.info(
      { username: admin.username, generatedPassword: admin.generatedPassword !== null },
      'created the first superuser',
    );
  if (opts.demo) await loadDemoAtStart(app, db, log);
  stopOnSignals(app, db, true);
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
  afterStart().catch((err: Error) =>
    app.log.warn(`no spare copy of the PGlite snapshot for the next new DATA_DIR: ${err.message}`),
  );
}
