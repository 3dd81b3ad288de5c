/**
 * Failover under a write load (docs/postgresql.md, "Failover"): the service runs on a multi-host
 * DATABASE_URL (target_session_attrs=read-write) over a primary and a synchronous standby; sites are
 * created in a loop and read back while the primary is killed (pg_ctl stop -m immediate) and, after a
 * gap, the standby promoted. No request may get a 500; every write acknowledged with a 2xx must be
 * on the new primary with its change record and its event; writes succeed again within 15 s of the
 * promotion; the change watch listens on the new primary.
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

const WRITERS = 4;
const READERS = 2;
/** how long the primary stays dead before the standby is promoted (the gap) */
const GAP_MS = 2_000;

interface Outcome {
  kind: 'write' | 'read';
  status: number;
  startedAt: number;
  endedAt: number;
  retryAfter: string | undefined;
  body: string;
  slug?: string;
  id?: number;
}

let cluster: Cluster;
let db: Database;
let app: FastifyInstance;
let media: string;
const token = randomBytes(20).toString('hex');

beforeAll(async () => {
  cluster = await startCluster({
    synchronous: true,
    prepare: async (primary) => {
      await query(primary, 'create database inventory');
      const setup = await openDatabase({ databaseUrl: primary.url('inventory'), dataDir: '', poolSize: 2 });
      try {
        await prepareDatabase(setup);
      } finally {
        await setup.close();
      }
    },
  });
  const { primary, standby } = cluster;
  const url = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/inventory?target_session_attrs=read-write`;
  media = makeTempDir('inv-failover-media-');
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', MEDIA_ROOT: media, EVENT_WORKER: 'false' });
  db = await openDatabase({ databaseUrl: url, dataDir: '', poolSize: 8 });
  app = await buildApp(config, { db, eventWorker: false });
  await createSuperuser(db.kysely, 'admin', 'admin-password', token);
});

afterAll(async () => {
  await app?.close();
  await db?.close();
  await cluster?.destroy();
  if (media) removeTempDir(media);
});

const headers = () => ({ authorization: `Token ${token}`, 'content-type': 'application/json' });

async function post(path: string, body: unknown) {
  const res = await app.inject({ method: 'POST', url: path, headers: headers(), payload: JSON.stringify(body) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

/** runs `step` in a loop until `stop()` says so, recording each outcome */
async function loop(step: () => Promise<Outcome>, stop: () => boolean, out: Outcome[]) {
  while (!stop()) {
    out.push(await step());
    // a 503 asks for a retry after a second; the load retries sooner, to find the end of the gap
    if (out.at(-1)!.status === 503) await new Promise((r) => setTimeout(r, 50));
  }
}

describe('failover to a promoted synchronous standby', () => {
  it('answers 503 during the gap, never 500, loses no acknowledged write and writes again soon after promotion', async () => {
    const hook = await post('/api/extras/webhooks/', { name: 'failover-hook', payload_url: 'http://127.0.0.1:9/hook' });
    await post('/api/extras/event-rules/', {
      name: 'failover-rule',
      content_types: ['dcim.site'],
      type_create: true,
      action_object_type: 'extras.webhook',
      action_object_id: hook.id,
    });

    let n = 0;
    const write = async (): Promise<Outcome> => {
      const slug = `fo-${++n}-${randomBytes(3).toString('hex')}`;
      const startedAt = Date.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/dcim/sites/',
        headers: headers(),
        payload: JSON.stringify({ name: slug, slug }),
      });
      const ok = res.statusCode === 201;
      return {
        kind: 'write',
        status: res.statusCode,
        startedAt,
        endedAt: Date.now(),
        retryAfter: res.headers['retry-after'] as string | undefined,
        body: res.body,
        slug,
        ...(ok ? { id: (res.json() as { id: number }).id } : {}),
      };
    };
    const read = async (): Promise<Outcome> => {
      const startedAt = Date.now();
      const res = await app.inject({ method: 'GET', url: '/api/dcim/sites/?limit=5', headers: headers() });
      return {
        kind: 'read',
        status: res.statusCode,
        startedAt,
        endedAt: Date.now(),
        retryAfter: res.headers['retry-after'] as string | undefined,
        body: res.body,
      };
    };

    const outcomes: Outcome[] = [];
    let killedAt = 0;
    let promotedAt = 0;
    let stopped = false;
    const stop = () => stopped;
    const loops = [
      ...Array.from({ length: WRITERS }, () => loop(write, stop, outcomes)),
      ...Array.from({ length: READERS }, () => loop(read, stop, outcomes)),
    ];

    await new Promise((r) => setTimeout(r, 1_500));
    killedAt = Date.now();
    await cluster.primary.kill();
    await new Promise((r) => setTimeout(r, GAP_MS));
    await cluster.standby.promote();
    promotedAt = Date.now();
    // the load goes on until writes succeed again, and two seconds more (at most 20 s)
    const writesBack = () => outcomes.some((o) => o.kind === 'write' && o.status === 201 && o.startedAt > promotedAt);
    while (!writesBack() && Date.now() - promotedAt < 20_000) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 2_000));
    stopped = true;
    await Promise.all(loops);

    const writes = outcomes.filter((o) => o.kind === 'write');
    const acknowledged = writes.filter((o) => o.status === 201);
    const refused = outcomes.filter((o) => o.status === 503);
    const firstBack = acknowledged.filter((o) => o.startedAt > promotedAt).sort((a, b) => a.endedAt - b.endedAt)[0];
    const summary = {
      requests: outcomes.length,
      writes: writes.length,
      acknowledged: acknowledged.length,
      refused503: refused.length,
      statuses: [...new Set(outcomes.map((o) => o.status))].sort(),
      writesBackAfterPromotionMs: firstBack ? firstBack.endedAt - promotedAt : null,
      lastAcknowledgedBeforeKillMsBeforeKill:
        killedAt - Math.max(...acknowledged.filter((o) => o.endedAt <= killedAt).map((o) => o.endedAt)),
    };
    console.log(`failover load: ${JSON.stringify(summary)}`);

    // Assert: 201/200 or 503 with Retry-After and NetBox's {"detail": ...}, nothing else
    const unexpected = outcomes.filter((o) => ![200, 201, 503].includes(o.status));
    expect(unexpected.map((o) => `${o.kind} ${o.status} ${o.body}`)).toEqual([]);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) {
      expect(o.retryAfter).toBe('1');
      expect(Object.keys(JSON.parse(o.body))).toEqual(['detail']);
    }
    // writes and reads during the gap were answered, not left hanging
    expect(
      outcomes
        .filter((o) => o.startedAt > killedAt && o.startedAt < promotedAt)
        .every((o) => o.endedAt - o.startedAt < 5_000),
    ).toBe(true);
    expect(firstBack, 'no write succeeded after the promotion').toBeDefined();
    expect(firstBack!.endedAt - promotedAt).toBeLessThan(15_000);
    expect(outcomes.some((o) => o.kind === 'read' && o.status === 200 && o.startedAt > promotedAt)).toBe(true);

    // every acknowledged write is on the new primary, with its change record and its event
    const ids = acknowledged.map((o) => o.id!).join(',');
    const [found] = await query<{ sites: number; changes: number; events: number; deliveries: number }>(
      cluster.standby,
      `select (select count(*) from dcim_site where id in (${ids}))::int as sites,
         (select count(distinct changed_object_id) from extras_objectchange
           where changed_object_type = 'dcim.site' and changed_object_id in (${ids}))::int as changes,
         (select count(distinct object_id) from core_event where model = 'dcim.site' and object_id in (${ids}))::int as events,
         (select count(distinct e.object_id) from core_delivery d join core_event e on e.id = d.event_id
           where e.model = 'dcim.site' and e.object_id in (${ids}))::int as deliveries`,
      'inventory',
    );
    const n2 = acknowledged.length;
    expect(found).toEqual({ sites: n2, changes: n2, events: n2, deliveries: n2 });

    // the change watch listens again, on the new primary
    const until = Date.now() + 5_000;
    while (!db.changes.reliable && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(db.changes.reliable).toBe(true);
    const listeners = await query(
      cluster.standby,
      `select 1 from pg_stat_activity where application_name = 'inventory-change-watch'`,
    );
    expect(listeners.length).toBe(1);
  });
});
