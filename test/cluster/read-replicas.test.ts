/**
 * Reads on a replica that applies changes 2 s late (recovery_min_apply_delay), docs/postgresql.md
 * "Read replicas": two service instances (A and B, each with its own pools, as two processes would
 * have) on the same primary and replica. A user's write on A is read at once by the same user on B;
 * another user's read on B may come from the late replica (and its caches follow the replica's own
 * snapshot); the replica serves most of a read loop; killing the replica costs no failed request.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createSuperuser, prepareDatabase } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-dirs.js';
import { type Cluster, query, startCluster } from './pg-cluster.js';

interface Instance {
  db: Database;
  app: FastifyInstance;
}

let cluster: Cluster;
let media: string;
let a: Instance;
let b: Instance;
const writer = randomBytes(20).toString('hex');
const other = randomBytes(20).toString('hex');

async function instance(): Promise<Instance> {
  const env = {
    DATABASE_URL: cluster.primary.url('inventory'),
    DATABASE_REPLICA_URLS: cluster.standby.url('inventory'),
    LOG_LEVEL: 'silent',
    MEDIA_ROOT: media,
    EVENT_WORKER: 'false',
  };
  const config = loadConfig(env);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: '',
    poolSize: 6,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.databaseReplicaMaxLagMs,
  });
  return { db, app: await buildApp(config, { db, eventWorker: false }) };
}

/** the standby's statistics of the inventory database: transactions and rows read */
async function activity(node: Cluster['primary']) {
  const [row] = await query<{ xacts: string; fetched: string; returned: string }>(
    node,
    `select xact_commit + xact_rollback as xacts, tup_fetched as fetched, tup_returned as returned
     from pg_stat_database where datname = 'inventory'`,
  );
  return { xacts: Number(row!.xacts), fetched: Number(row!.fetched), returned: Number(row!.returned) };
}

const get = (i: Instance, url: string, token: string) =>
  i.app.inject({ method: 'GET', url, headers: { authorization: `Token ${token}` } });

beforeAll(async () => {
  cluster = await startCluster({
    applyDelay: '2s',
    prepare: async (primary) => {
      await query(primary, 'create database inventory');
      const setup = await openDatabase({ databaseUrl: primary.url('inventory'), dataDir: '', poolSize: 2 });
      try {
        await prepareDatabase(setup);
        await createSuperuser(setup.kysely, 'writer', 'writer-password', writer);
        await createSuperuser(setup.kysely, 'other', 'other-password', other);
      } finally {
        await setup.close();
      }
    },
  });
  media = makeTempDir('inv-replicas-media-');
  a = await instance();
  b = await instance();
});

afterAll(async () => {
  for (const i of [a, b]) {
    await i?.app.close();
    await i?.db.close();
  }
  await cluster?.destroy();
  if (media) removeTempDir(media);
});

describe('reads on a replica 2 s behind', () => {
  it("shows a user's write to that user at once on another instance, and lets another user read the late replica", async () => {
    const slug = `ryw-${randomBytes(3).toString('hex')}`;
    const url = `/api/dcim/sites/?slug=${slug}`;
    // the other user's reads fill B's caches from the replica before the write
    for (let i = 0; i < 3; i++) expect((await get(b, url, other)).json().count).toBe(0);

    const created = await a.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: { authorization: `Token ${writer}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: slug, slug }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;

    const replicaReads = b.db.replicas!.nodes[0]!.reads;
    const started = Date.now();
    const own = await get(b, url, writer);
    const ownDetail = await get(b, `/api/dcim/sites/${id}/`, writer);
    const ownMs = Date.now() - started;
    expect(own.json().count).toBe(1);
    expect(ownDetail.statusCode).toBe(200);

    // the replica has not applied it yet: another user may be answered from there, without it,
    // from B's response cache (stored under the replica's snapshot) or from the replica itself
    expect((await get(b, url, other)).json().count).toBe(0);
    expect((await get(b, `${url}&limit=7`, other)).json().count).toBe(0);
    expect(b.db.replicas!.nodes[0]!.reads).toBeGreaterThan(replicaReads);

    // once applied, the other user sees it too: no cache kept the replica's older answer
    const until = Date.now() + 10_000;
    let seen = 0;
    while (seen === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      seen = (await get(b, url, other)).json().count as number;
    }
    const appliedAfterMs = Date.now() - started;
    console.log(`read-your-writes: own reads ${ownMs} ms, the other user saw it after ${appliedAfterMs} ms`);
    expect(seen).toBe(1);
    expect(appliedAfterMs).toBeGreaterThanOrEqual(1_500);
  });

  it('serves most of a read loop from the replica', async () => {
    // an instance of its own, closed after the loop: a server counts a connection's transactions in
    // pg_stat_database when it ends, or at most every second while busy (PostgreSQL: "The
    // Cumulative Statistics System"), so closing its pools makes the counts whole
    const c = await instance();
    const primaryBefore = await activity(cluster.primary);
    const replicaBefore = await activity(cluster.standby);
    const N = 200;
    // each URL once, so no response is served from the response cache without a statement
    for (let i = 0; i < N; i++) {
      const res = await get(c, `/api/dcim/sites/?limit=5&offset=${i}`, other);
      expect(res.statusCode).toBe(200);
    }
    const replicaStatements = c.db.replicas!.nodes[0]!.reads;
    // statements of requests sent to the primary (the count includes the replica's); the user's
    // write position is read past Kysely, one per request, and shows in primaryXacts
    const primaryStatements = c.db.stats.queries - replicaStatements;
    await c.app.close();
    await c.db.close();
    await new Promise((r) => setTimeout(r, 500));
    const primary = await activity(cluster.primary);
    const replica = await activity(cluster.standby);
    const served = {
      replicaStatements,
      primaryStatements,
      primaryXacts: primary.xacts - primaryBefore.xacts,
      replicaXacts: replica.xacts - replicaBefore.xacts,
      primaryRowsRead: primary.fetched + primary.returned - primaryBefore.fetched - primaryBefore.returned,
      replicaRowsRead: replica.fetched + replica.returned - replicaBefore.fetched - replicaBefore.returned,
    };
    console.log(`read loop of ${N} requests: ${JSON.stringify(served)}`);
    expect(served.replicaStatements).toBeGreaterThanOrEqual(N);
    expect(served.primaryStatements).toBeLessThanOrEqual(N / 20);
    expect(served.replicaXacts).toBeGreaterThan(served.primaryXacts);
  });

  it('goes on reading on the replica while the primary is away; a write answers 503', async () => {
    const slug = `away-${randomBytes(3).toString('hex')}`;
    const made = await a.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: { authorization: `Token ${writer}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: slug, slug }),
    });
    expect(made.statusCode, made.body).toBe(201);
    // the replica applies it 2 s late: wait for it, so the read below can find it there
    const until = Date.now() + 10_000;
    while ((await get(b, `/api/dcim/sites/?slug=${slug}`, other)).json().count !== 1 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));

    await cluster.primary.kill();
    try {
      // the token is looked up and the writer's last write position asked on the replica now
      for (const i of [a, b]) {
        const read = await get(i, `/api/dcim/sites/?slug=${slug}`, writer);
        expect(read.statusCode, read.body).toBe(200);
        expect(read.json().count).toBe(1);
      }
      const write = await b.app.inject({
        method: 'POST',
        url: '/api/dcim/sites/',
        headers: { authorization: `Token ${writer}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: `${slug}-2`, slug: `${slug}-2` }),
      });
      expect(write.statusCode, write.body).toBe(503);
      expect(write.headers['retry-after']).toBe('1');
    } finally {
      await cluster.primary.start();
    }
    // the primary is back: reads and writes on it again
    const back = Date.now() + 15_000;
    let status = 0;
    while (status !== 201 && Date.now() < back) {
      const res = await a.app.inject({
        method: 'POST',
        url: '/api/dcim/sites/',
        headers: { authorization: `Token ${writer}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: `${slug}-3`, slug: `${slug}-3` }),
      });
      status = res.statusCode;
      if (status !== 201) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(201);
  });

  it('loses no request when the replica is killed under a read load', async () => {
    const outcomes: Array<{ status: number; body: string }> = [];
    let stopped = false;
    const loop = async (i: Instance) => {
      while (!stopped) {
        const res = await get(i, '/api/dcim/sites/?limit=5', other);
        outcomes.push({ status: res.statusCode, body: res.body });
      }
    };
    const loops = [loop(a), loop(a), loop(b), loop(b)];
    await new Promise((r) => setTimeout(r, 800));
    const before = outcomes.length;
    await cluster.standby.kill();
    await new Promise((r) => setTimeout(r, 2_000));
    stopped = true;
    await Promise.all(loops);
    const failed = outcomes.filter((o) => o.status !== 200);
    console.log(
      `replica killed: ${before} reads before, ${outcomes.length - before} after, ${failed.length} failed; faults noticed: ${a.db.replicas!.faults.length + b.db.replicas!.faults.length}`,
    );
    expect(failed.map((o) => `${o.status} ${o.body}`)).toEqual([]);
    expect(outcomes.length - before).toBeGreaterThan(20);
    expect(b.db.replicas!.faults.length).toBeGreaterThan(0);
  });
});
