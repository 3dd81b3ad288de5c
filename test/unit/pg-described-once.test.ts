/**
 * DriverQuery (db/pg-driver/driver-query.ts, described-once.ts) on pg's own Client: a named
 * statement's result is described by the server once per connection; later executions send no
 * Describe and still give the same columns and parsed values. Unnamed statements are described
 * every time, and a statement whose result would change shape is refused by PostgreSQL rather
 * than answered with the kept columns.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverQuery } from '../../src/db/pg-driver/driver-query.js';
import { rowsAsObjects } from '../../src/db/row-builders.js';
import { adminQuery, needsPostgresServer, pgUrl } from '../helpers/engine.js';

const server = await needsPostgresServer();

describe.runIf(server.available)(`a named statement's result described once per connection${server.reason}`, () => {
  const name = `inv_t_described_${randomBytes(4).toString('hex')}`;
  let client: pg.Client;
  let describes = 0;

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    client = new pg.Client({ connectionString: pgUrl(name) });
    await client.connect();
    const connection = (client as unknown as { connection: { describe: (...a: unknown[]) => void } }).connection;
    const describe = connection.describe.bind(connection);
    connection.describe = (...a) => {
      describes++;
      describe(...a);
    };
    await client.query(
      `create table t (id bigint primary key, at timestamptz, doc jsonb, amount numeric(8, 2), label text)`,
    );
    await client.query(
      `insert into t values (1, '2026-11-28 10:00:00.5+00', '{"a": [1, 2]}', 1.5, 'one'), (2, null, null, null, 'two')`,
    );
  });
  afterAll(async () => {
    await client?.end();
    await adminQuery(`drop database if exists ${name} with (force)`);
  });

  /** one statement as a DriverQuery on pg's Client, its rows made objects as driver-client.ts does */
  const run = (text: string, values: unknown[], name?: string) =>
    new Promise<pg.QueryResult>((resolve, reject) => {
      const query = new DriverQuery(text, values, name);
      query.callback = (err, result) => (err ? reject(err) : resolve(rowsAsObjects(result as pg.QueryResult)));
      client.query(query);
    });
  const select = () => run('select * from t where id <= $1 order by id', [2], 's_select');

  it('describes a named statement once, and later results have the same columns and parsed values', async () => {
    const before = describes;
    const first = await select();
    const second = await select();
    const third = await select();
    expect(describes - before).toBe(1);
    expect(second.fields.map((f) => [f.name, f.dataTypeID])).toEqual(first.fields.map((f) => [f.name, f.dataTypeID]));
    expect(second.rows).toEqual(first.rows);
    expect(third.rows).toEqual(first.rows);
    // pg's parsers ran: a bigint as its text, a Date, an object, a numeric's text
    expect(third.rows[0]).toEqual({
      id: '1',
      at: new Date('2026-11-28T10:00:00.500Z'),
      doc: { a: [1, 2] },
      amount: '1.50',
      label: 'one',
    });
    expect(third.rowCount).toBe(2);
    expect(third.command).toBe('SELECT');
  });

  it('still describes every unnamed statement', async () => {
    const before = describes;
    await run('select label from t where id = $1', [1]);
    const again = await run('select label from t where id = $1', [1]);
    expect(describes - before).toBe(2);
    expect(again.rows).toEqual([{ label: 'one' }]);
  });

  it('a statement that fails on its values leaves the connection usable and its description kept', async () => {
    const text = 'select $1::int as n';
    expect((await run(text, ['7'], 's_cast')).rows).toEqual([{ n: 7 }]);
    await expect(run(text, ['seven'], 's_cast')).rejects.toThrow(/invalid input syntax/);
    const before = describes;
    expect((await run(text, ['8'], 's_cast')).rows).toEqual([{ n: 8 }]);
    expect(describes).toBe(before);
  });

  it('a result whose shape would change is refused by PostgreSQL, never given the kept columns', async () => {
    await select();
    await client.query('alter table t add column extra int');
    await expect(select()).rejects.toThrow(/cached plan must not change result type/);
    // a statement prepared after the change is described anew
    const fresh = await run('select * from t where id = $1', [1], 's_after');
    expect(fresh.fields.map((f) => f.name)).toEqual(['id', 'at', 'doc', 'amount', 'label', 'extra']);
    expect(Object.keys(fresh.rows[0] as object)).toHaveLength(6);
  });
});
