/**
 * The plan of a read (core/crud/read-plan.ts planRead), row by row of the decision table in
 * src/core/crud/README.md: which way the rows and the total are read, and which facts it asks for
 * (a fact can cost a statement, so the plan must not ask what it does not need).
 */
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { COLUMNAR_MIN_ROWS, plannedPerValue, planRead, type ReadFacts } from '../../src/core/crud/read-plan.js';

interface Stub {
  page?: { limit: number | null; offset: number };
  total?: 'cached' | 'shared' | 'uncounted';
  alternatives?: boolean;
  columns?: boolean;
  perValue?: boolean;
}

/** facts that record which of the costly ones the plan asked for */
function facts(s: Stub): ReadFacts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    page: s.page,
    total: s.total,
    alternatives: s.alternatives ?? false,
    async readableAsColumns() {
      asked.push('columns');
      return s.columns ?? true;
    },
    plannedPerValue(withTotal) {
      asked.push(`perValue:${withTotal}`);
      return s.perValue ?? false;
    },
  };
}

const LIST = { limit: 50, offset: 0 };

describe('the rows of a read', () => {
  it('are one statement for a small page planned once', async () => {
    const f = facts({ page: LIST, total: 'uncounted' });
    expect((await planRead(f)).rows).toBe('prefetched');
    // a small page never reads the column types (a statement the first time per table)
    expect(f.asked).toEqual(['perValue:true']);
  });

  it('are read as columns for a page of COLUMNAR_MIN_ROWS or more, or of every row', async () => {
    for (const limit of [COLUMNAR_MIN_ROWS, 1000, null]) {
      const f = facts({ page: { limit, offset: 0 }, total: 'uncounted', perValue: true, alternatives: true });
      const plan = await planRead(f);
      expect(plan.rows).toBe('columnar');
      expect(f.asked).toEqual(['columns']);
    }
  });

  it('are not read as columns one row below the threshold', async () => {
    const f = facts({ page: { limit: COLUMNAR_MIN_ROWS - 1, offset: 0 }, total: 'uncounted' });
    expect((await planRead(f)).rows).toBe('prefetched');
    expect(f.asked).not.toContain('columns');
  });

  it('fall through when a large page has a column no array text parses', async () => {
    const big = { limit: 1000, offset: 0 };
    expect((await planRead(facts({ page: big, total: 'uncounted', columns: false }))).rows).toBe('prefetched');
    expect((await planRead(facts({ page: big, total: 'uncounted', columns: false, perValue: true }))).rows).toBe(
      'per-value',
    );
    expect((await planRead(facts({ page: big, total: 'uncounted', columns: false, alternatives: true }))).rows).toBe(
      'alternatives',
    );
  });

  it('read an OR through its alternatives without asking how the page is planned', async () => {
    const f = facts({ page: LIST, total: 'uncounted', alternatives: true, perValue: false });
    expect((await planRead(f)).rows).toBe('alternatives');
    expect(f.asked).toEqual([]);
  });

  it('read a page planned per value alone, its prefetch apart', async () => {
    const f = facts({ page: LIST, total: 'uncounted', perValue: true });
    const plan = await planRead(f);
    expect(plan.rows).toBe('per-value');
    expect(plan.why.rows).toMatch(/per value/);
  });

  it('of a detail are never columnar, and ask how the statement is planned without a total', async () => {
    const f = facts({});
    expect(await planRead(f)).toMatchObject({ rows: 'prefetched', total: 'none' });
    expect(f.asked).toEqual(['perValue:false']);
    expect((await planRead(facts({ perValue: true }))).rows).toBe('per-value');
  });
});

describe('the total of a list', () => {
  it('comes from the count cache when it holds it, and the page statement carries none', async () => {
    const f = facts({ page: LIST, total: 'cached' });
    const plan = await planRead(f);
    expect(plan).toMatchObject({ rows: 'prefetched', total: 'cached' });
    expect(plan.emptyPage).toBeUndefined();
    expect(f.asked).toEqual(['perValue:false']);
  });

  it('is waited for when another request is counting it', async () => {
    const f = facts({ page: LIST, total: 'shared' });
    expect((await planRead(f)).total).toBe('shared');
    expect(f.asked).toEqual(['perValue:false']);
  });

  it('rides on the page statement otherwise: 0 for an empty first page, counted alone further on', async () => {
    expect(await planRead(facts({ page: LIST, total: 'uncounted' }))).toMatchObject({
      total: 'with-page',
      emptyPage: 'zero',
    });
    expect(await planRead(facts({ page: { limit: 50, offset: 50 }, total: 'uncounted' }))).toMatchObject({
      total: 'with-page',
      emptyPage: 'count-alone',
    });
  });

  it('gives each choice a reason', async () => {
    const plan = await planRead(facts({ page: LIST, total: 'uncounted' }));
    expect(plan.why.rows).toMatch(/one statement/);
    expect(plan.why.total).toMatch(/sub-select/);
  });
});

describe('plannedPerValue', () => {
  const q = (text: string, parameters: unknown[]) => CompiledQuery.raw(text, parameters);

  it('is a pattern or a network containment against a parameter', () => {
    expect(plannedPerValue(q('select * from t where t.name ilike $1', ['%a%']))).toBe(true);
    expect(plannedPerValue(q('select * from t where t.address <<= $1', ['10.0.0.0/8']))).toBe(true);
    expect(plannedPerValue(q('select * from t where t.name ~* $1', ['^a']))).toBe(true);
  });

  it('is not equality against parameters, nor a pattern written into the statement', () => {
    expect(plannedPerValue(q('select * from t where t.id = $1', [1]))).toBe(false);
    expect(plannedPerValue(q("select * from t where t.name like 'a%'", []))).toBe(false);
  });
});
