/**
 * The service as it runs (`node bin/inventory.js serve`: one esbuild bundle, bin/compile-cache.js)
 * keeps what db/pg-described-once.ts promises: a named statement's result is described once per
 * connection, so a request repeated on a warm connection sends PostgreSQL Bind and Execute, never
 * Describe. test/unit/pg-described-once.test.ts checks the patch itself on pg from node_modules;
 * this one checks it reaches the copy of pg inside the bundle (issue 15: a run-time require of
 * pg's files patched a second, unused copy, and every statement was described again).
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

describe.runIf(server.available && ENGINE === 'postgres')(
  `the bundled service describes a named statement once per connection${server.reason}`,
  () => {
    const counts = new Map<string, number>();
    let db: ChildDatabase;
    let proxy: TcpProxy;
    let svc: ChildService;

    beforeAll(async () => {
      db = await childDatabase();
      const dbUrl = new URL(db.env.DATABASE_URL!);
      proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(dbUrl.port || 5432) }, messageCounter(counts));
      dbUrl.port = String(proxy.port);
      svc = await startChildService(db, { DATABASE_URL: dbUrl.toString(), RESPONSE_CACHE_MB: '0' }, { bundled: true });
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

    it('sends Bind and Execute for a repeated page, and no Describe', async () => {
      const create = await fetch(`${svc.url}/api/dcim/sites/`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify([
          { name: 'Bundle A', slug: 'bundle-a' },
          { name: 'Bundle B', slug: 'bundle-b' },
        ]),
      });
      expect(create.status).toBe(201);
      // one request at a time: the pool hands the same warm connection back each time
      for (let i = 0; i < 5; i++) await get('/api/dcim/sites/?limit=50');
      counts.clear();
      for (let i = 0; i < 20; i++) expect((await get('/api/dcim/sites/?limit=50')).count).toBe(2);
      // every page was read by a named statement (Bind), described before the counting began
      expect(counts.get('B') ?? 0).toBeGreaterThanOrEqual(20);
      expect(counts.get('D') ?? 0).toBe(0);
      expect(counts.get('P') ?? 0).toBe(0);
    });
  },
);
