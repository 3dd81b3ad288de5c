/**
 * installDescribedOnce (db/pg-described-once.ts): a named statement's result is described by the
 * server once per connection; later executions send no Describe and still give the same columns
 * and parsed values, in both row modes. Unnamed statements are described every time, and a
 * statement whose result would change shape is refused by PostgreSQL rather than answered with
 * the kept columns.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDescribedOnce } from '../../src/db/pg-described-once.js';
import { adminQuery, needsPostgresServer, pgUrl } from '../helpers/engine.js';

const server = await needsPostgresServer();

describe.runIf(server.available)(`a named statement's result described once per connection${server.reason}`, () => {
  const name = `inv_t_described_${randomBytes(4).toString('hex')}`;
  let client: pg.Client;
  let describes = 0;

  beforeAll(async () => {
    installDescribedOnce();
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

  const select = (rowMode?: 'array') => ({
    name: `s_${rowMode ?? 'object'}`,
    text: 'select * from t where id <= $1 order by id',
    values: [2],
    ...(rowMode ? { rowMode } : {}),
  });

  it('describes a named statement once, and later results have the same columns and parsed values', async () => {
    for (const rowMode of ['array', undefined] as const) {
      const before = describes;
      const first = await client.query(select(rowMode));
      const second = await client.query(select(rowMode));
      const third = await client.query(select(rowMode));
      expect(describes - before).toBe(1);
      expect(second.fields.map((f) => [f.name, f.dataTypeID])).toEqual(first.fields.map((f) => [f.name, f.dataTypeID]));
      expect(second.rows).toEqual(first.rows);
      expect(third.rows).toEqual(first.rows);
      const row = (rowMode ? third.rows[0] : Object.values(third.rows[0] as object)) as unknown[];
      // pg's parsers ran: a bigint as its text, a Date, an object, a numeric's text
      expect(row).toEqual(['1', new Date('2026-11-28T10:00:00.500Z'), { a: [1, 2] }, '1.50', 'one']);
      expect(third.rowCount).toBe(2);
      expect(third.command).toBe('SELECT');
    }
  });

  it('still describes every unnamed statement', async () => {
    const before = describes;
    await client.query({ text: 'select label from t where id = $1', values: [1] });
    const again = await client.query({ text: 'select label from t where id = $1', values: [1] });
    expect(describes - before).toBe(2);
    expect(again.rows).toEqual([{ label: 'one' }]);
  });

  it('a statement that fails on its values leaves the connection usable and its description kept', async () => {
    const stmt = { name: 's_cast', text: 'select $1::int as n', values: ['7'] };
    expect((await client.query(stmt)).rows).toEqual([{ n: 7 }]);
    await expect(client.query({ ...stmt, values: ['seven'] })).rejects.toThrow(/invalid input syntax/);
    const before = describes;
    expect((await client.query({ ...stmt, values: ['8'] })).rows).toEqual([{ n: 8 }]);
    expect(describes).toBe(before);
  });

  it('a result whose shape would change is refused by PostgreSQL, never given the kept columns', async () => {
    await client.query(select('array'));
    await client.query('alter table t add column extra int');
    await expect(client.query(select('array'))).rejects.toThrow(/cached plan must not change result type/);
    // a statement prepared after the change is described anew
    const fresh = await client.query({
      name: 's_after',
      text: 'select * from t where id = $1',
      values: [1],
      rowMode: 'array',
    });
    expect(fresh.fields.map((f) => f.name)).toEqual(['id', 'at', 'doc', 'amount', 'label', 'extra']);
    expect(fresh.rows[0]).toHaveLength(6);
  });
});
