/**
 * Rows of the PostgreSQL driver made into objects by a function compiled once per column list.
 *
 * pg makes each row by spreading a prebuilt object and then storing every column by its name
 * (pg 8 result.js parseRow): per row a copy of a 40-column object and 40 keyed stores. On
 * a page of 50 sites that was 5.5-6.3 % of the server's CPU. Asked for arrays (rowMode 'array'),
 * pg parses the same values into an array, and the function here builds the object as one object
 * literal, whose shape V8 knows ahead: 0.1 against 0.7-0.9 us a row of 45 columns (bench/README.md).
 *
 * The object is what pg would have made: the columns in their order, each by its name; a name given
 * twice keeps its first place and its last value, as pg's stores do.
 */
import type { FieldDef } from 'pg';

type Build = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * Builders by their column names (joined): a statement's result always has the same columns, and
 * a server sends a few hundred shapes at most. Bounded: cleared when a client's ad-hoc queries
 * would grow it past this.
 */
const builders = new Map<string, Build>();
const MAX_BUILDERS = 2_000;

function compile(names: string[]): Build {
  // an object literal's "__proto__" sets the prototype instead of a property: such a result (never
  // one of ours) is built as pg builds it, a property at a time
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) =>
        Object.defineProperty(row, name, { value: values[i], writable: true, enumerable: true, configurable: true }),
      );
      return row;
    };
  }
  // each name a JSON string literal: any text a column can be named stays a key
  return new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as Build;
}

/** The builder of objects with these keys, in this order, from an array of their values. */
export function rowBuilder(names: string[]): Build {
  const key = names.join('\u0000');
  let build = builders.get(key);
  if (build === undefined) {
    build = compile(names);
    if (builders.size >= MAX_BUILDERS) builders.clear();
    builders.set(key, build);
  }
  return build;
}

/**
 * Builders by a result's column list itself: a prepared statement's results share their kept
 * description (pg-driver/described-once.ts), so its builder is found without joining its names again.
 */
const byFields = new WeakMap<FieldDef[], Build>();

/** Turns the array rows of a result (rowMode 'array') into objects, in place. */
export function rowsAsObjects<R extends { rows: unknown[]; fields: FieldDef[] }>(result: R): R {
  const rows = result.rows;
  if (rows.length === 0) return result;
  let build = byFields.get(result.fields);
  if (build === undefined) byFields.set(result.fields, (build = rowBuilder(result.fields.map((f) => f.name))));
  for (let i = 0; i < rows.length; i++) rows[i] = build(rows[i] as unknown[]);
  return result;
}
