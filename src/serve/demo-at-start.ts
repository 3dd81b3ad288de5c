/**
 * `serve --demo`: the demo network (demo-data.ts) loaded by the service itself before it listens,
 * into an inventory that holds no site yet, so a newcomer starts with data and never runs a second
 * process against the embedded database. An inventory with sites is left as it is (a restart with
 * the same flag loads nothing).
 */
import type { FastifyInstance } from 'fastify';
import type pino from 'pino';
import type { Database } from '../db/client.js';
import { inventoryIsEmpty } from '../demo-data-client.js';
import { loadDemoData } from '../demo-data.js';

export async function loadDemoAtStart(app: FastifyInstance, db: Database, log: pino.Logger): Promise<boolean> {
  if (!(await inventoryIsEmpty(db))) {
    log.info('--demo: the inventory already holds sites; no demo data loaded');
    return false;
  }
  const started = Date.now();
  await loadDemoData(app, db, (line) => log.debug(line.trim()));
  log.info({ ms: Date.now() - started }, '--demo: loaded the demo network');
  return true;
}
