/** lookups.ts likeFor: LIKE only for values that case folding cannot change, ILIKE for every other */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { likeFor } from '../../src/core/query/lookups.js';

const db = new Kysely<unknown>({
  dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() },
});
const op = (v: string) => sql`${likeFor(v)}`.compile(db).sql;

describe('likeFor', () => {
  it('gives LIKE for ASCII values without letters', () => {
    for (const v of ['10.1.', '2001:0::1', '00-11-22', '42', ' _%\\[]{}@`~', '']) expect(op(v), v).toBe('like');
  });
  it('gives ILIKE for any letter, ASCII or not, and any other non-ASCII character', () => {
    for (const v of ['a', 'Z', '10.1.a', '2001:DB8::', 'é', 'Ü1', '\u0130', '\u212a', '\u0307', '１']) expect(op(v), v).toBe('ilike');
  });
});
