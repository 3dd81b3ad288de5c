/**
 * The PGlite dialect's prepared statements (db/pglite-dialect.ts) give the same rows, types and
 * counts as PGlite's own query(), recover from errors, leave query() working, and follow a change of a
 * table's columns.
 * Runs on an in-memory PGlite whichever engine the suite was started for.
 */
import { PGlite, protocol } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kdb } from '../../src/db/client.js';
import { PGliteDialect } from '../../src/db/pglite-dialect.js';
import { parseTimestamptz } from '../../src/db/type-parsers.js';

let pglite: PGlite;
let db: Kdb;

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec(`set time zone 'UTC'`);
  db = new Kysely({ dialect: new PGliteDialect(pglite) });
  await sql`create table item (id bigserial primary key, name text not null unique, tags text[] not null default '{}',
    data jsonb not null default '{}', ok boolean, ports integer[], at timestamptz not null default now())`.execute(db);
});
afterAll(async () => db.destroy());

describe('prepared statements on PGlite', () => {
  it('bind every kind of value and parse the rows as query() does', async () => {
    const insert = (name: string) => sql<{ id: number }>`insert into item (name, tags, data, ok, ports)
      values (${name}, ${['a', 'b,c']}::text[], ${JSON.stringify({ k: [1, 'x'] })}::jsonb, ${true}, ${[22, 443]}::integer[]) returning id`;
    const first = await insert('one').execute(db);
    const second = await insert('two').execute(db); // the same text again: bound to the prepared statement
    expect(second.rows[0]!.id).toBe(first.rows[0]!.id + 1);
    const read = sql`select id, name, tags, data, ok, ports, at, null::text as nothing from item where name = ${'two'}`;
    const ours = (await read.execute(db)).rows[0];
    const theirs = (
      await pglite.query(
        `select id, name, tags, data, ok, ports, at, null::text as nothing from item where name = $1`,
        ['two'],
        {
          parsers: { 20: Number, 1184: parseTimestamptz },
        },
      )
    ).rows[0];
    expect(ours).toEqual(theirs);
    expect(ours).toMatchObject({
      name: 'two',
      tags: ['a', 'b,c'],
      data: { k: [1, 'x'] },
      ok: true,
      ports: [22, 443],
      nothing: null,
    });
  });

  it('count affected rows', async () => {
    const res = await sql`update item set ok = ${false} where name in (${'one'}, ${'two'})`.execute(db);
    expect(res.numAffectedRows).toBe(2n);
  });

  it('report a failed statement with its code and keep the connection usable', async () => {
    const dup = sql`insert into item (name) values (${'one'})`;
    // the DatabaseError PGlite's query() throws, with the fields the API's error handler reads
    await expect(dup.execute(db)).rejects.toMatchObject({
      name: 'error',
      code: '23505',
      constraint: 'item_name_key',
      detail: 'Key (name)=(one) already exists.',
    });
    await expect(dup.execute(db)).rejects.toMatchObject({ code: '23505' });
    await expect(sql`select 1/${0}::int as x`.execute(db)).rejects.toMatchObject({ code: '22012' });
    expect((await sql<{ n: number }>`select count(*)::int as n from item`.execute(db)).rows[0]!.n).toBe(2);
  });

  it("leave PGlite's own protocol calls their replies after reading the wire itself (db/pglite-wire.ts)", async () => {
    const dataRows = async (text: string) =>
      (await pglite.execProtocol(protocol.serialize.query(text))).messages.filter((m) => m.name === 'dataRow').length;
    await sql`select name from item where name = ${'one'}`.execute(db);
    expect(await dataRows('select 2 as x')).toBe(1);
    await expect(sql`select 1/${0}::int as x`.execute(db)).rejects.toMatchObject({ code: '22012' });
    expect(await dataRows('select 3 as x union all select 4')).toBe(2);
    expect((await pglite.query<{ x: number }>('select 5 as x')).rows).toEqual([{ x: 5 }]);
  });

  it('take up a table whose columns changed', async () => {
    const all = sql<Record<string, unknown>>`select * from item where name = ${'one'}`;
    expect(Object.keys((await all.execute(db)).rows[0]!)).not.toContain('extra');
    await sql`alter table item add column extra text not null default 'x'`.execute(db);
    // PostgreSQL refuses the statement prepared for the old columns once, then it is prepared anew
    const again = await all.execute(db).catch((e: { code?: string }) => {
      expect(e.code).toBe('0A000');
      return all.execute(db);
    });
    expect(again.rows[0]!.extra).toBe('x');
  });
});
