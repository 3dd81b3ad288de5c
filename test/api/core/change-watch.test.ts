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
    const res = await admin.query(
      'select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1',
      [tag],
    );
    expect(res.rows.length).toBe(1);
    await until(() => !watch.reliable, 2_000);
    expect(watch.reliable).toBe(false);
    await until(() => watch.reliable, 5_000);
    expect(watch.reliable).toBe(true);
    // what happened while nobody listened is unknown
    expect(watch.generation).toBeGreaterThan(before);
  });
});

describe.skipIf(!server.available)(
  `postgresChangeWatch: notifications only while another process listens${server.reason}`,
  () => {
    // a database of its own: a listener of another test file cannot count as a peer here
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    const name = `inv_t_peers_${randomUUID().slice(0, 8)}`;
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const spy = new pg.Client({ connectionString: url.toString() });
    const heard: string[] = [];
    const watches: Array<ReturnType<typeof postgresChangeWatch>> = [];

    beforeAll(async () => {
      await admin.connect();
      await admin.query(`create database ${name}`);
      // listens without ever saying hello: it is nobody's peer, and sees every notification
      await spy.connect();
      spy.on('notification', (n) => heard.push(n.payload ?? ''));
      await spy.query('listen inventory_data_changed');
    });
    afterAll(async () => {
      for (const w of watches) await w.close();
      await spy.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });

    // a heartbeat every 100 ms, so a process is sure to be alone after 300 ms of listening
    const timing = { heartbeatMs: 100, peerTtlMs: 1_000, learnMs: 300 };
    const open = async () => {
      const w = postgresChangeWatch(url.toString(), () => undefined, timing);
      watches.push(w);
      await whenReliable(w);
      return w;
    };
    const settle = () => new Promise((r) => setTimeout(r, 300));

    it('sends none for its writes once sure it is alone, and tells a process that starts listening', async () => {
      const first = await open();
      await until(() => heard.some((p) => p.endsWith(' ~hello')));
      const firstId = heard.find((p) => p.endsWith(' ~hello'))!.split(' ')[0];
      // just listening, it cannot know yet whether it is alone: its write is told
      const early = `early_${randomUUID().slice(0, 8)}`;
      first.observe(`insert into ${early} (x) values ($1)`);
      await until(() => heard.includes(`${firstId} ${early}`));
      expect(heard).toContain(`${firstId} ${early}`);
      await settle();
      const probe = `probe_${randomUUID().slice(0, 8)}`;
      first.observe(`insert into ${probe} (x) values ($1)`);
      await settle();
      expect(heard.filter((p) => p.includes(probe))).toEqual([]);

      // the first hears the newcomer's hello and tells it that anything may have moved
      const second = await open();
      await until(() => heard.includes(`${firstId} *`));
      expect(heard).toContain(`${firstId} *`);
      await settle();
      const before = second.tableVersion([probe]);
      const untouched = second.tableVersion(['users_token']);
      first.observe(`insert into ${probe} (x) values ($1)`);
      await until(() => second.tableVersion([probe]) !== before);
      expect(second.tableVersion([probe])).not.toBe(before);
      expect(second.tableVersion(['users_token'])).toBe(untouched);
      expect(heard).toContain(`${firstId} ${probe}`);
    });

    it("tells the processes already listening of a newcomer's first writes", async () => {
      const first = await open();
      await settle();
      const table = `fresh_${randomUUID().slice(0, 8)}`;
      const seen = first.tableVersion([table]);
      // written before the newcomer could hear anybody's hello
      const newcomer = await open();
      newcomer.observe(`insert into ${table} (x) values ($1)`);
      await until(() => first.tableVersion([table]) !== seen);
      expect(first.tableVersion([table])).not.toBe(seen);
    });
  },
);
