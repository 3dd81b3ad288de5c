/**
 * DriverQuery (db/pg-driver/driver-query.ts), pg's Query subclass: it holds exactly what pg's own
 * Query made from the same `{ name, text, values, rowMode: 'array' }` holds, reached without pg's
 * descriptor copy of a config object (lib/utils.js normalizeQueryConfig is given the text alone).
 * pg is pinned to an exact version (package.json); this fails if its Query changes under it.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DriverQuery } from '../../src/db/pg-driver/driver-query.js';

const utils = (pg as unknown as { utils: { normalizeQueryConfig: (...a: unknown[]) => unknown } }).utils;

/** what pg reads of a Query when it sends it and reads its answer */
const held = (q: object) => {
  const r = q as Record<string, unknown> & { _result: Record<string, unknown> };
  return {
    text: r.text,
    values: r.values,
    name: r.name,
    rows: r.rows,
    types: r.types,
    queryMode: r.queryMode,
    binary: r.binary,
    portal: r.portal,
    rowMode: r._rowMode,
    resultRowAsArray: r._result.rowAsArray,
    resultParseRow: r._result.parseRow,
    sameResults: r._results === r._result,
    requiresPreparation: (q as { requiresPreparation(): boolean }).requiresPreparation(),
  };
};

describe('DriverQuery', () => {
  const cases: Array<[string, unknown[], string | undefined]> = [
    ['select $1::int as n', [1], 's1'],
    ['select $1::int as n', [2], undefined],
    ['commit', [], undefined],
  ];

  it('holds what pg Query made from the same config holds', () => {
    for (const [text, values, name] of cases) {
      const config = { text, values, rowMode: 'array', ...(name ? { name } : {}) };
      const expected = held(new pg.Query(config as pg.QueryConfig));
      expect(held(new DriverQuery(text, values, name))).toEqual(expected);
    }
  });

  it('gives pg the text alone to normalise, never a config object to copy', () => {
    const normalize = utils.normalizeQueryConfig;
    const given: unknown[] = [];
    utils.normalizeQueryConfig = (...args) => {
      given.push(args[0]);
      return normalize(...args);
    };
    try {
      new DriverQuery('select $1::int as n', [1], 's1');
      new pg.Query({ text: 'select 1' });
    } finally {
      utils.normalizeQueryConfig = normalize;
    }
    // the second call proves pg still normalises through this function
    expect(given).toEqual(['select $1::int as n', { text: 'select 1' }]);
  });

  it('is a pg Query, so a pipelined client accepts it', () => {
    expect(new DriverQuery('select 1', [], undefined)).toBeInstanceOf(pg.Query);
  });
});
