/**
 * The SQL shapes of filters that decide how PostgreSQL plans a page: likeFor (LIKE only for values
 * that case folding cannot change, ILIKE for every other) and oneOf (`=` for one id, whose generic
 * plan PostgreSQL keeps; `= any()` for more).
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oneOf } from '../../src/core/query/filter-conditions.js';
import { likeFor } from '../../src/core/query/lookups.js';

const db = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const op = (v: string) => sql`${likeFor(v)}`.compile(db).sql;

describe('likeFor', () => {
  it('gives LIKE for ASCII values without letters', () => {
    for (const v of ['10.1.', '2001:0::1', '00-11-22', '42', ' _%\\[]{}@`~', '']) expect(op(v), v).toBe('like');
  });
  it('gives ILIKE for any letter, ASCII or not, and any other non-ASCII character', () => {
    for (const v of ['a', 'Z', '10.1.a', '2001:DB8::', 'é', 'Ü1', '\u0130', '\u212a', '\u0307', '１'])
      expect(op(v), v).toBe('ilike');
  });
});

describe('oneOf', () => {
  const shape = (ids: number[]) => sql`${oneOf(sql.ref('t.device_id'), ids)}`.compile(db);
  it('compares one id with =, as a bigint parameter', () => {
    expect(shape([501])).toMatchObject({ sql: '"t"."device_id" = $1::bigint', parameters: [501] });
  });
  it('compares several with = any() of a bigint array', () => {
    expect(shape([1, 2])).toMatchObject({ sql: '"t"."device_id" = any($1::bigint[])', parameters: [[1, 2]] });
  });
});
