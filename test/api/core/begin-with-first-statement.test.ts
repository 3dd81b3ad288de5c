/**
 * On PostgreSQL a write transaction's BEGIN is written to the socket together with its first
 * statement (db/pg-driver/driver-client.ts, pg's pipeline mode): one write and one round trip
 * less per write. The transaction must still be one: its statements run inside it, a failure rolls
 * back what it wrote, and the connection goes back to the pool ready for the next. Runs against
 * the machine's PostgreSQL server whichever engine the suite runs on; skipped with the reason on a
 * machine without one.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/db/client.js';
import { adminQuery, needsPostgresServer, pgUrl } from '../../helpers/engine.js';
import { socketWrites } from '../../helpers/socket-events.js';

const server = await needsPostgresServer();
if (!server.available) console.warn(`begin-with-first-statement.test.ts${server.reason}`);

const NAME = `inv_test_begin_${process.pid}`;

describe.skipIf(!server.available)(`a write transaction's BEGIN on PostgreSQL${server.reason}`, () => {
  let db: Database;
  const rows = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from begin_probe`.execute(db.kysely)).rows[0]!.n);

  beforeAll(async () => {
    await adminQuery(`drop database if exists ${NAME} with (force)`);
    await adminQuery(`create database ${NAME}`);
    db = await openDatabase({ databaseUrl: pgUrl(NAME), dataDir: '', poolSize: 1, driverPatches: true });
    await sql`create table begin_probe (x int not null)`.execute(db.kysely);
  });
  afterAll(async () => {
    await db?.close();
    await adminQuery(`drop database if exists ${NAME} with (force)`);
  });

  it('goes out in the same write as the first statement, which runs inside the transaction', async () => {
    let inside: { a: string; b: string } | undefined;
    const writes = await socketWrites(() =>
      db.kysely.transaction().execute(async (trx) => {
        const a = (
          await sql<{ t: string }>`select now()::text as t from (values (1)) v where 'probe-one' <> ''`.execute(trx)
        ).rows[0]!.t;
        await new Promise((r) => setTimeout(r, 20));
        // now() is the transaction's start: the same for both statements only inside one transaction
        const b = (await sql<{ t: string }>`select now()::text as t`.execute(trx)).rows[0]!.t;
        inside = { a, b };
      }),
    );
    expect(inside!.b).toBe(inside!.a);
    const first = writes.filter((w) => w.includes('probe-one'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/begin/);
    expect(writes.filter((w) => /begin/.test(w))).toHaveLength(1);
  });

  it('rolls back what was written when a statement fails, or when the work throws before any statement', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await sql`insert into begin_probe values (1)`.execute(trx);
        await sql`select 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await rows()).toBe(0);
    // the first statement itself fails: BEGIN went out with it, and the rollback follows
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await sql`insert into begin_probe values (null)`.execute(trx);
      }),
    ).rejects.toThrow(/null value/);
    await expect(
      db.kysely.transaction().execute(async () => {
        throw new Error('nothing written');
      }),
    ).rejects.toThrow('nothing written');
    // the one pooled connection is usable afterwards, inside and outside a transaction
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into begin_probe values (2)`.execute(trx);
    });
    expect(await rows()).toBe(1);
  });

  it('answers transactions in flight on several connections each with its own statements', async () => {
    const many = await openDatabase({ databaseUrl: pgUrl(NAME), dataDir: '', poolSize: 4, driverPatches: true });
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          many.kysely.transaction().execute(async (trx) => {
            await sql`insert into begin_probe values (${100 + i})`.execute(trx);
            return (await sql<{ x: number }>`select max(x) as x from begin_probe where x = ${100 + i}`.execute(trx))
              .rows[0]!.x;
          }),
        ),
      );
      expect(results).toEqual(Array.from({ length: 12 }, (_, i) => 100 + i));
    } finally {
      await many.close();
    }
    expect(await rows()).toBe(13);
  });
});
