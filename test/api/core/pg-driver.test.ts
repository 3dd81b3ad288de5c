/**
 * What the service writes to PostgreSQL with the driver's patches on and off (db/pg-driver/,
 * PG_DRIVER_PATCHES): on, a repeated named statement sends Bind and Execute without Describe, a
 * transaction's BEGIN shares its first statement's write, and a COMMIT_FOLLOWS statement's COMMIT
 * shares its write too; off, pg sends each the plain way. The rows are the same both ways. Runs
 * against the machine's PostgreSQL server whichever engine the suite runs on. In the bundle project
 * (vitest.config.ts, postgres-bundle) the database is opened by the bundled code, so a patch that
 * reaches only the TypeScript fails here.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMIT_FOLLOWS, type Database, openDatabase } from '../../../src/db/client.js';
import { adminQuery, needsPostgresServer, pgUrl } from '../../helpers/engine.js';
import { socketWrites } from '../../helpers/socket-events.js';

const server = await needsPostgresServer();
const NAME = `inv_test_pg_driver_${process.pid}`;

/** the type bytes of the frontend messages in one socket write (each: type, length, body) */
function messageTypes(write: string): string[] {
  const bytes = Buffer.from(write, 'latin1');
  const types: string[] = [];
  for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readInt32BE(at + 1))
    types.push(String.fromCharCode(bytes[at]!));
  return types;
}

describe.runIf(server.available)(`the pg driver's patches, on and off${server.reason}`, () => {
  const dbs: Record<'on' | 'off', Database> = {} as never;

  beforeAll(async () => {
    await adminQuery(`drop database if exists ${NAME} with (force)`);
    await adminQuery(`create database ${NAME}`);
    for (const mode of ['on', 'off'] as const) {
      dbs[mode] = await openDatabase({
        databaseUrl: pgUrl(NAME),
        dataDir: '',
        poolSize: 1,
        driverPatches: mode === 'on',
      });
    }
    await sql`create table driver_probe (id bigint primary key, label text, at timestamptz)`.execute(dbs.on.kysely);
    await sql`insert into driver_probe values (1, 'one', '2026-11-28 10:00:00.5+00'), (2, 'two', null)`.execute(
      dbs.on.kysely,
    );
  });
  afterAll(async () => {
    await dbs.on?.close();
    await dbs.off?.close();
    await adminQuery(`drop database if exists ${NAME} with (force)`);
  });

  const page = (db: Database) =>
    sql<{ id: number; label: string; at: string | null }>`select id, label, at from driver_probe
      where id = any(${[1, 2]}::bigint[]) order by id`.execute(db.kysely);

  it('gives the same rows both ways', async () => {
    const [on, off] = [await page(dbs.on), await page(dbs.off)];
    expect(on.rows).toEqual(off.rows);
    expect(on.rows).toEqual([
      { id: 1, label: 'one', at: '2026-11-28T10:00:00.500000Z' },
      { id: 2, label: 'two', at: null },
    ]);
  });

  it('on: a repeated statement is neither parsed nor described again on its connection', async () => {
    await page(dbs.on);
    const twice = async () => {
      await page(dbs.on);
      await page(dbs.on);
    };
    const types = (await socketWrites(twice)).flatMap(messageTypes);
    expect(types.filter((t) => t === 'B')).toHaveLength(2);
    expect(types.filter((t) => t === 'D' || t === 'P')).toEqual([]);
  });

  it('off: plain pg sends every execution unnamed, parsed and described', async () => {
    await page(dbs.off);
    const twice = async () => {
      await page(dbs.off);
      await page(dbs.off);
    };
    const types = (await socketWrites(twice)).flatMap(messageTypes);
    expect(types.filter((t) => t === 'P')).toHaveLength(2);
    expect(types.filter((t) => t === 'D')).toHaveLength(2);
  });

  const write = (db: Database, id: number) =>
    socketWrites(() =>
      db.kysely.transaction().execute(async (trx) => {
        await trx.executeQuery(
          sql`insert into driver_probe (id, label) values (${id}, 'probe-write') ${sql.raw(COMMIT_FOLLOWS)}`.compile(
            trx,
          ),
        );
      }),
    );

  it('on: BEGIN, the statement and its COMMIT go out in one write', async () => {
    const writes = await write(dbs.on, 10);
    const first = writes.filter((w) => w.includes('probe-write'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/begin[^]*probe-write[^]*commit/);
    expect(writes.filter((w) => /begin|commit/.test(w))).toHaveLength(1);
  });

  it('off: BEGIN, the statement and COMMIT each go out in a write of their own', async () => {
    const writes = await write(dbs.off, 11);
    expect(writes.filter((w) => /begin|probe-write|commit/.test(w))).toHaveLength(3);
    const rows = await sql<{ id: number }>`select id from driver_probe where id in (10, 11) order by id`.execute(
      dbs.off.kysely,
    );
    expect(rows.rows).toEqual([{ id: 10 }, { id: 11 }]);
  });
});
