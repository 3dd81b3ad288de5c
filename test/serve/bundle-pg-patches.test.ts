/**
 * The service as it runs (`node bin/inventory.js serve`: one esbuild bundle, bin/compile-cache.js)
 * keeps what db/pg-driver/described-once.ts promises: a named statement's result is described once
 * per connection, so a request repeated on a warm connection sends PostgreSQL Bind and Execute,
 * never Describe; and PG_DRIVER_PATCHES=off reaches its pool (plain pg describes every execution).
 * test/unit/pg-described-once.test.ts checks the Query itself on pg from node_modules; this one
 * checks the bundle's own copy of pg, the one its pool uses (a patch loaded through a run-time
 * require once patched a second, unused copy, and every statement was described again).
 * The frontend messages are counted by a loopback proxy between the service and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHILD_TOKEN,
  type ChildDatabase,
  type ChildService,
  childDatabase,
  startChildService,
} from '../helpers/child-service.js';
import { ENGINE, needsPostgresServer } from '../helpers/engine.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const server = await needsPostgresServer();

/**
 * A reader of one connection's client side as PostgreSQL frontend messages, counting them by type
 * byte: the startup message has no type byte, every later one is a type, a length, a body.
 */
function messageCounter(counts: Map<string, number>): () => (chunk: Buffer) => void {
  return () => {
    let pending = Buffer.alloc(0);
    let started = false;
    return (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const header = started ? 5 : 4;
        if (pending.length < header) return;
        const length = pending.readInt32BE(started ? 1 : 0);
        if (pending.length < header - 4 + length) return;
        if (started) {
          const type = String.fromCharCode(pending[0]!);
          counts.set(type, (counts.get(type) ?? 0) + 1);
        }
        pending = pending.subarray(header - 4 + length);
        started = true;
      }
    };
  };
}

describe.runIf(server.available && ENGINE === 'postgres').each(['on', 'off'])(
  `the bundled service with PG_DRIVER_PATCHES=%s${server.reason}`,
  (patches) => {
    const counts = new Map<string, number>();
    let db: ChildDatabase;
    let proxy: TcpProxy;
    let svc: ChildService;

    beforeAll(async () => {
      db = await childDatabase();
      const dbUrl = new URL(db.env.DATABASE_URL!);
      proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(dbUrl.port || 5432) }, messageCounter(counts));
      dbUrl.port = String(proxy.port);
      svc = await startChildService(
        db,
        // no webhook worker polling: one request at a time, the pool hands the same warm
        // connection back each time (pg-pool reuses its most recently released client)
        {
          DATABASE_URL: dbUrl.toString(),
          EVENT_WORKER: 'false',
          RESPONSE_CACHE_MB: '0',
          PG_DRIVER_PATCHES: patches,
        },
        { bundled: true },
      );
    }, 120_000);

    afterAll(async () => {
      if (svc && svc.child.exitCode === null) {
        svc.child.kill('SIGTERM');
        await svc.exited;
      }
      await proxy?.close();
      await db?.drop();
    });

    const headers = { Authorization: `Token ${CHILD_TOKEN}`, Accept: 'application/json' };
    const get = async (path: string) => {
      const res = await fetch(`${svc.url}${path}`, { headers });
      expect(res.status).toBe(200);
      return res.json() as Promise<{ count: number }>;
    };

    it(
      patches === 'on'
        ? 'sends Bind and Execute for a repeated page, and no Describe'
        : 'parses every page again (plain pg)',
      async () => {
        const create = await fetch(`${svc.url}/api/dcim/sites/`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify([
            { name: 'Bundle A', slug: 'bundle-a' },
            { name: 'Bundle B', slug: 'bundle-b' },
          ]),
        });
        expect(create.status).toBe(201);
        for (let i = 0; i < 5; i++) await get('/api/dcim/sites/?limit=50');
        counts.clear();
        for (let i = 0; i < 20; i++) expect((await get('/api/dcim/sites/?limit=50')).count).toBe(2);
        if (patches === 'on') {
          // every page was read by a named statement (Bind), described before the counting began
          expect(counts.get('B') ?? 0).toBeGreaterThanOrEqual(20);
          expect(counts.get('D') ?? 0).toBe(0);
          expect(counts.get('P') ?? 0).toBe(0);
        } else {
          // plain pg: every page parsed and planned again, as a simple query (a page without
          // parameters) or through Parse and Describe
          expect((counts.get('Q') ?? 0) + (counts.get('P') ?? 0)).toBeGreaterThanOrEqual(20);
        }
      },
    );
  },
);
