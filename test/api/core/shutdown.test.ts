/**
 * The service as a process (src/cli.ts, http/drain.ts), on the suite's engine:
 * - SIGTERM drains: new connections are refused, the bulk write in flight finishes and is
 *   answered with `Connection: close`, then the database is closed and the process exits 0;
 * - SIGKILL in the middle of a bulk write leaves none of it, and the database (PGlite: its data
 *   directory) opens again with everything committed before.
 */
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { CHILD_TOKEN, childDatabase, startChildService } from '../../helpers/child-service.js';
import { ENGINE } from '../../helpers/engine.js';
import { uniq } from '../../factories/index.js';

const N = 3_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tenants = (prefix: string) =>
  JSON.stringify(Array.from({ length: N }, (_, i) => ({ name: `${prefix}-${i}`, slug: `${prefix}-${i}` })));

async function countOf(db: Database, prefix: string): Promise<number> {
  const res = await sql<{
    n: number;
  }>`select count(*)::int as n from tenancy_tenant where name like ${`${prefix}-%`}`.execute(db.kysely);
  return res.rows[0]!.n;
}

function post(url: string, body: string) {
  return fetch(`${url}/api/tenancy/tenants/`, {
    method: 'POST',
    headers: { authorization: `Token ${CHILD_TOKEN}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(60_000),
  });
}

/** how a new connection to the port fares: 'connected' or the error code */
function tryConnect(port: number): Promise<string> {
  return new Promise((ok) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      ok('connected');
    });
    c.once('error', (e: NodeJS.ErrnoException) => ok(e.code ?? e.message));
  });
}

describe(`the service process (${ENGINE})`, () => {
  it('drains on SIGTERM: refuses new connections, finishes the bulk write in flight, closes its connection, then exits 0', async () => {
    const db = await childDatabase();
    const svc = await startChildService(db);
    try {
      const prefix = uniq('drain');
      const body = tenants(prefix);
      // a keep-alive connection carrying the bulk create
      const sock = connect(svc.port, '127.0.0.1');
      await once(sock, 'connect');
      let raw = '';
      let firstByteAt = 0;
      sock.on('data', (b: Buffer) => {
        firstByteAt ||= Date.now();
        raw += b.toString('latin1');
      });
      const closed = once(sock, 'close');
      sock.write(
        `POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${CHILD_TOKEN}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      // early in the request: on PGlite a statement holds the event loop until it returns, and the
      // signal is handled after the request
      await sleep(50);
      const signalledAt = Date.now();
      svc.child.kill('SIGTERM');
      let refusedAt = 0;
      for (let i = 0; i < 500 && !refusedAt; i++) {
        if ((await tryConnect(svc.port)) === 'ECONNREFUSED') refusedAt = Date.now();
        else await sleep(20);
      }
      // the server ends the keep-alive connection itself once the answer is out
      await closed;
      expect(await svc.exited, svc.output()).toEqual({ code: 0, signal: null });
      expect(refusedAt).toBeGreaterThan(signalledAt);
      expect(firstByteAt, 'the bulk was answered after the signal (make N larger if this fails)').toBeGreaterThan(
        signalledAt,
      );
      if (ENGINE === 'postgres') {
        // statements wait on the network there, so the process refused connections while it still
        // worked on the write, and told the client the connection ends with this answer (on PGlite
        // the answer is out before the signal is handled, and the idle connection is closed)
        expect(firstByteAt).toBeGreaterThan(refusedAt);
        expect(raw).toMatch(/\r\nconnection: close\r\n/i);
      }
      expect(raw).toMatch(/^HTTP\/1\.1 201 /);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toHaveLength(N);
      const check = await db.open();
      try {
        expect(await countOf(check, prefix)).toBe(N);
      } finally {
        await check.close();
      }
    } finally {
      svc.child.kill('SIGKILL');
      await svc.exited;
      await db.drop();
    }
  }, 120_000);

  it('leaves nothing of a bulk write killed midway (SIGKILL), and the database opens again', async () => {
    const db = await childDatabase();
    // PGlite: the tenants' heap file, which grows as soon as the write's rows are stored
    let heapFile: string | null = null;
    if (ENGINE === 'pglite') {
      const probe = await db.open();
      const rel = (await sql<{ p: string }>`select pg_relation_filepath('tenancy_tenant') as p`.execute(probe.kysely))
        .rows[0]!.p;
      await probe.close();
      heapFile = join(db.env.DATA_DIR!, rel);
    }
    const svc = await startChildService(db);
    const committed = uniq('kept');
    const killed = uniq('killed');
    try {
      expect((await post(svc.url, tenants(committed))).status).toBe(201);
      const sizeBefore = heapFile ? statSync(heapFile).size : 0;
      const pending = post(svc.url, tenants(killed)).then(
        (r) => r.status,
        () => 'no answer',
      );
      // wait until the write has stored rows but not committed, then kill
      const watcher = ENGINE === 'postgres' ? new pg.Client({ connectionString: db.env.DATABASE_URL }) : null;
      await watcher?.connect();
      const midWrite = async () => {
        if (heapFile) return statSync(heapFile).size > sizeBefore;
        // a backend whose transaction has written (it holds a transaction id) and not ended
        const res =
          await watcher!.query(`select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
          and backend_xid is not null and state in ('active', 'idle in transaction')`);
        return res.rows.length > 0;
      };
      const until = Date.now() + 30_000;
      while (!(await midWrite())) {
        if (Date.now() > until) throw new Error('the bulk write never started writing');
        await sleep(heapFile ? 2 : 5);
      }
      svc.child.kill('SIGKILL');
      await watcher?.end();
      expect(await svc.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await pending).toBe('no answer');
      const check = await db.open();
      try {
        expect(await countOf(check, committed)).toBe(N);
        expect(await countOf(check, killed)).toBe(0);
        // and it takes writes again
        await sql`insert into tenancy_tenant (name, slug) values (${`${killed}-after`}, ${`${killed}-after`})`.execute(
          check.kysely,
        );
        expect(await countOf(check, killed)).toBe(1);
      } finally {
        await check.close();
      }
    } finally {
      svc.child.kill('SIGKILL');
      await db.drop();
    }
  }, 120_000);
});
