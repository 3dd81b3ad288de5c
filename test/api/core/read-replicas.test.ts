/**
 * Reads routed to replicas (src/db/replicas/, docs/postgresql.md "Read replicas"), on PostgreSQL
 * without a standby: the "replica" is the test database itself through a URL whose sessions are
 * read-only (`default_transaction_read_only`), so a write sent there would fail with 25006 as on a
 * standby. Real standbys, one delayed and one killed, are test/cluster/read-replicas.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { type Database, openDatabase } from '../../../src/db/client.js';
import { grant, makeSite, makeUser, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE } from '../../helpers/engine.js';

/** a loopback port nobody listens on (the discard port's neighbour is as good as any closed one) */
const DEAD_REPLICA = 'postgres://postgres@127.0.0.1:9/inventory?connect_timeout=1';

function readOnlyUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', '-c default_transaction_read_only=on');
  return u.toString();
}

async function replicatedApp(t: TestApp, replicaUrls: string[]): Promise<{ app: FastifyInstance; db: Database }> {
  const env = { DATABASE_URL: t.databaseUrl!, DATABASE_REPLICA_URLS: replicaUrls.join(','), LOG_LEVEL: 'silent' };
  const config = loadConfig({ ...env, MEDIA_ROOT: t.tempDir('inv-replica-media-'), EVENT_WORKER: 'false' });
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: '',
    poolSize: 4,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.databaseReplicaMaxLagMs,
  });
  const app = await buildApp(config, { db, eventWorker: false });
  return { app, db };
}

describe.skipIf(ENGINE !== 'postgres')('reads on a replica (PostgreSQL)', () => {
  let t: TestApp;
  let r: { app: FastifyInstance; db: Database };
  const as = (token: string) => ({ authorization: `Token ${token}`, 'content-type': 'application/json' });
  const replicaReads = () => r.db.replicas!.nodes[0]!.reads;

  beforeAll(async () => {
    t = await makeTestApp();
    r = await replicatedApp(t, [readOnlyUrl(t.databaseUrl!)]);
  });
  afterAll(async () => {
    await r?.app.close();
    await r?.db.close();
    await t?.close();
  });

  it('answers GET lists, details and GraphQL queries from the replica, and writes on the primary', async () => {
    const site = await makeSite(t);
    const before = replicaReads();
    const list = await r.app.inject({ method: 'GET', url: '/api/dcim/sites/', headers: as(t.token) });
    expect(list.statusCode, list.body).toBe(200);
    const detail = await r.app.inject({ method: 'GET', url: `/api/dcim/sites/${site.id}/`, headers: as(t.token) });
    expect(detail.json().slug).toBe(site.slug);
    const gql = await r.app.inject({
      method: 'POST',
      url: '/graphql/',
      headers: as(t.token),
      payload: JSON.stringify({ query: `{ site(id: ${site.id}) { name } }` }),
    });
    expect(gql.statusCode, gql.body).toBe(200);
    expect(gql.json().data.site.name).toBe(site.name);
    const afterReads = replicaReads();
    expect(afterReads).toBeGreaterThanOrEqual(before + 3);
    // a write on a read-only replica would answer 503 (25006): it went to the primary
    const slug = uniq('site');
    const created = await r.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: as(t.token),
      payload: JSON.stringify({ name: slug, slug }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(replicaReads()).toBe(afterReads);
  });

  it("records the writer's WAL position after its write, and its next read waits for a replica that has it", async () => {
    const admin = await sql<{ id: number }>`select id from users_user where username = ${t.username}`.execute(
      t.db.kysely,
    );
    const user = { id: admin.rows[0]!.id };
    const slug = uniq('site');
    const res = await r.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: as(t.token),
      payload: JSON.stringify({ name: slug, slug }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { rows } = await sql<{ behind: boolean }>`
      select lsn <= pg_current_wal_insert_lsn() and lsn > '0/0' as behind
      from users_write_position where user_id = ${user.id}`.execute(t.db.kysely);
    expect(rows).toEqual([{ behind: true }]);
    const before = replicaReads();
    const read = await r.app.inject({ method: 'GET', url: `/api/dcim/sites/?slug=${slug}`, headers: as(t.token) });
    expect(read.json().count).toBe(1);
    expect(replicaReads()).toBeGreaterThan(before);
  });

  it('asks the primary once for the write positions of the readers that arrive together, each its own', async () => {
    const other = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view', 'add'], users: [other.id] });
    const slugs = { admin: uniq('site'), other: uniq('site') };
    for (const [who, token] of [
      ['admin', t.token],
      ['other', other.token],
    ] as const) {
      const res = await r.app.inject({
        method: 'POST',
        url: '/api/dcim/sites/',
        headers: as(token),
        payload: JSON.stringify({ name: slugs[who], slug: slugs[who] }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const fences = r.db.replicas!.fences;
    const before = { statements: fences.statements, lookups: fences.lookups };
    // twelve reads at once, six of each user, each of its own write
    const reads = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const [token, slug] = i % 2 ? [other.token, slugs.other] : [t.token, slugs.admin];
        return r.app.inject({ method: 'GET', url: `/api/dcim/sites/?slug=${slug}`, headers: as(token) });
      }),
    );
    for (const read of reads) expect(read.json().count, read.body).toBe(1);
    expect(fences.lookups - before.lookups).toBe(12);
    expect(fences.statements - before.statements).toBeLessThan(12);
    // and /metrics says so, with where the reads went
    const metrics = (await r.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain(`inventory_replica_write_position_lookups_total ${fences.lookups}\n`);
    expect(metrics).toContain(`inventory_replica_write_position_statements_total ${fences.statements}\n`);
    expect(metrics).toContain(`inventory_replica_statements_total{replica="1"} ${replicaReads()}\n`);
    // each reader gets its own position, and one who never wrote none
    const recorded = await sql<{
      user_id: string;
      lsn: string;
    }>`select user_id::text, lsn::text from users_write_position
      where user_id in (${other.id}, (select id from users_user where username = ${t.username}))`.execute(t.db.kysely);
    expect(recorded.rows).toHaveLength(2);
    const asked = await Promise.all([
      ...recorded.rows.map((row) => fences.positionOf(Number(row.user_id))),
      fences.positionOf(-1),
    ]);
    expect(asked).toEqual([...recorded.rows.map((row) => row.lsn), null]);
  });

  it('sends what a replica refuses as read-only to the primary, and the rest of the request after it', async () => {
    const read = await r.db.replicas!.reader(null);
    expect(read).not.toBeNull();
    const { q, route } = read!;
    await sql`select 1`.execute(q);
    expect(route.onPrimary).toBe(false);
    // SELECT ... FOR UPDATE is refused in a read-only transaction (25006), as on a standby
    const locked = await sql<{ id: number }>`select id from users_user order by id limit 1 for update`.execute(q);
    expect(locked.rows).toHaveLength(1);
    expect(route.onPrimary).toBe(true);
    expect(route.wrote).toBe(false);
    // a write is sent to the primary at once, and so is a transaction
    const again = (await r.db.replicas!.reader(null))!;
    await sql`update users_user set last_login = last_login where id = 0`.execute(again.q);
    expect(again.route).toMatchObject({ onPrimary: true, wrote: true });
    const inTrx = (await r.db.replicas!.reader(null))!;
    await inTrx.q.transaction().execute(async (trx) => void (await sql`select 1`.execute(trx)));
    expect(inTrx.route.onPrimary).toBe(true);
  });
});

describe.skipIf(ENGINE !== 'postgres')('a replica that cannot be reached (PostgreSQL)', () => {
  let t: TestApp;
  let r: { app: FastifyInstance; db: Database };

  beforeAll(async () => {
    t = await makeTestApp();
    r = await replicatedApp(t, [DEAD_REPLICA]);
  });
  afterAll(async () => {
    await r?.app.close();
    await r?.db.close();
    await t?.close();
  });

  it('costs no failed request: reads go to the primary while it is skipped', async () => {
    const site = await makeSite(t);
    for (let i = 0; i < 5; i++) {
      const res = await r.app.inject({
        method: 'GET',
        url: `/api/dcim/sites/${site.id}/`,
        headers: { authorization: `Token ${t.token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(r.db.replicas!.faults.length).toBeGreaterThanOrEqual(1);
    expect(r.db.replicas!.nodes[0]!.reads).toBe(0);
  });
});
