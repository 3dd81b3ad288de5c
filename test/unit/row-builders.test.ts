/**
 * rowsAsObjects (db/row-builders.ts): rows read as arrays become the objects pg itself would have
 * made of them (pg's Result#parseRow is the reference), in key order and values.
 */
import { createRequire } from 'node:module';
import type { FieldDef } from 'pg';
import { describe, expect, it } from 'vitest';
import { rowsAsObjects } from '../../src/db/row-builders.js';

// pg's own row maker, as it runs without rowMode (pg/lib/result.js)
const Result = createRequire(import.meta.url)('pg/lib/result.js') as new () => {
  addFields(fields: FieldDef[]): void;
  parseRow(values: unknown[]): Record<string, unknown>;
};

const field = (name: string): FieldDef => ({
  name,
  tableID: 0,
  columnID: 0,
  dataTypeID: 25,
  dataTypeSize: -1,
  dataTypeModifier: -1,
  format: 'text',
});

/** the objects pg makes of these text rows, and the ones made here of the same rows as arrays */
function both(names: string[], rows: Array<Array<string | null>>) {
  const fields = names.map(field);
  const pg = new Result();
  pg.addFields(fields);
  const expected = rows.map((r) => pg.parseRow(r));
  const actual = rowsAsObjects({ rows: rows.map((r) => [...r]), fields }).rows as unknown as Array<
    Record<string, unknown>
  >;
  return { expected, actual };
}

describe('rowsAsObjects', () => {
  it('makes the objects pg makes, keys in column order', () => {
    const { expected, actual } = both(
      ['id', 'name', 'slug', 'description'],
      [
        ['1', 'Site 1', 'site-1', ''],
        ['2', 'Site 2', 'site-2', null],
      ],
    );
    expect(actual).toEqual(expected);
    expect(actual.map(Object.keys)).toEqual(expected.map(Object.keys));
    expect(Object.getPrototypeOf(actual[0])).toBe(Object.prototype);
  });

  it('keeps the first place and the last value of a name given twice', () => {
    const { expected, actual } = both(['id', 'n', 'id'], [['1', 'x', '2']]);
    expect(actual).toEqual(expected);
    expect(actual[0]).toEqual({ id: '2', n: 'x' });
    expect(Object.keys(actual[0]!)).toEqual(Object.keys(expected[0]!));
  });

  it('keeps names that are not identifiers, and integer-like names in the order objects give them', () => {
    const names = ['m2m:asns', 'a "quoted" name', "it's", '10', '2', 'back\\slash', 'line\nbreak', 'constructor', ''];
    const { expected, actual } = both(names, [names.map((_, i) => `v${i}`)]);
    expect(actual).toEqual(expected);
    expect(Object.keys(actual[0]!)).toEqual(Object.keys(expected[0]!));
  });

  it('keeps a column named __proto__ as a property, not a prototype', () => {
    const { expected, actual } = both(['id', '__proto__'], [['1', 'p']]);
    expect(Object.getPrototypeOf(actual[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(actual[0])).toEqual(['id', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(actual[0], '__proto__')?.value).toBe('p');
    expect(Object.getOwnPropertyDescriptor(expected[0], '__proto__')?.value).toBe('p');
  });

  it('leaves a result without rows as it is', () => {
    const result = { rows: [] as unknown[], fields: [] as FieldDef[] };
    expect(rowsAsObjects(result)).toBe(result);
  });
});
