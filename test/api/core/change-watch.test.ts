/**
 * The cross-process half of the data generation (db/change-watch.ts) against the machine's
 * PostgreSQL server, whichever engine the suite runs on: notifications from other processes move
 * the generation, and a dropped listening connection switches caches off until it is back. On the
 * PGlite run of a machine without that server (`npm test` anywhere), skipped with the reason.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_NAME, postgresChangeWatch, whenReliable } from '../../../src/db/change-watch.js';
import { needsPostgresServer, PG_ADMIN_URL } from '../../helpers/engine.js';

const server = await needsPostgresServer();
if (!server.available) console.warn(`change-watch.test.ts${server.reason}`);

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

describe.skipIf(!server.available)(`postgresChangeWatch${server.reason}`, () => {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  // a name of its own, so this file only touches its own listener
  const url = new URL(PG_ADMIN_URL);
  const tag = `${APPLICATION_NAME}-${randomUUID().slice(0, 8)}`;
  url.searchParams.set('application_name', tag);
  const watch = server.available ? postgresChangeWatch(url.toString()) : null!;

  beforeAll(async () => {
    await admin.connect();
    await whenReliable(watch);
  });
  afterAll(async () => {
    await watch.close();
    await admin.end();
  });

  it('moves the generation when another process notifies a write', async () => {
    expect(watch.reliable).toBe(true);
    const before = watch.generation;
    await admin.query(`notify inventory_data_changed, 'another-process'`);
    await until(() => watch.generation > before);
    expect(watch.generation).toBeGreaterThan(before);
  });

  it('moves only the tables another process names, and every table for a notice naming none', async () => {
    const tokens = watch.tableVersion(['users_token']);
    const sites = watch.tableVersion(['dcim_site']);
    let before = watch.generation;
    await admin.query(`notify inventory_data_changed, 'another-process dcim_site,dcim_rack'`);
    await until(() => watch.generation > before);
    expect(watch.tableVersion(['dcim_site'])).not.toBe(sites);
    expect(watch.tableVersion(['users_token'])).toBe(tokens);
    // an older process's notice names no tables
    before = watch.generation;
    await admin.query(`notify inventory_data_changed, 'another-process'`);
    await until(() => watch.generation > before);
    expect(watch.tableVersion(['users_token'])).not.toBe(tokens);
  });

  it('is unreliable while its connection is down, and listens again with a new generation', async () => {
    const before = watch.generation;
    const res = await admin.query('select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1', [tag]);
    expect(res.rows.length).toBe(1);
    await until(() => !watch.reliable, 2_000);
    expect(watch.reliable).toBe(false);
    await until(() => watch.reliable, 5_000);
    expect(watch.reliable).toBe(true);
    // what happened while nobody listened is unknown
    expect(watch.generation).toBeGreaterThan(before);
  });
});
