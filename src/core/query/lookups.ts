/**
 * Filter lookups, generated from one table keyed by field kind (spec: Filtering rules 4;
 * NetBox utilities/constants.py), never from a chain of ifs. Each lookup turns a column and the
 * parsed values of one query parameter into a SQL condition; repeated values OR, negations exclude all.
 */
import { sql, type RawBuilder } from 'kysely';

export type Cond = RawBuilder<unknown>;
type LookupFn = (col: Cond, values: unknown[], nullable: boolean) => Cond;

/** Escapes LIKE wildcards so a value matches literally. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** ASCII characters that are no letters: digits, punctuation, space (addresses, MACs as typed, numbers) */
const CASELESS = /^[\x00-\x40\x5b-\x60\x7b-\x7f]*$/;

/**
 * The operator of a case-insensitive match of `value` (the user's text, before escaping; the only
 * wildcards around it are `%`). ILIKE folds the case of every row's text before comparing. A value
 * of ASCII characters that are no letters folds to itself, and no character folds to one of them,
 * so LIKE, a byte compare, finds the same rows: about half the cost per row
 * (`ip-addresses/?q=10.1.` filters ~2,500 rows per page), and left-anchored it can use
 * a `text_pattern_ops` index.
 */
export function likeFor(value: string): Cond {
  return CASELESS.test(value) ? sql`like` : sql`ilike`;
}

/**
 * `col` equals one of `values`, as `cast` (else the column's type): `= $1` for one value, `= any($1)`
 * for more. PostgreSQL replans a prepared statement on every run while its generic plan looks
 * costlier than the plans made for each value, and for an array of unknown length it guesses a
 * whole page of rows: an interface page (`device_id=`) was planned on every request, 2 ms, to run
 * in 0.2 ms. With one value the generic plan's guess is the per-value average, and it is kept.
 */
export function equalsAny(col: Cond, values: unknown[], cast?: string): Cond {
  if (values.length === 1) return cast ? sql`${col} = ${values[0]}::${sql.raw(cast)}` : sql`${col} = ${values[0]}`;
  return cast ? sql`${col} = any(${values}::${sql.raw(cast)}[])` : sql`${col} = any(${values})`;
}

const orLike = (col: Cond, values: unknown[], wrap: (v: string) => string) =>
  sql`(${sql.join(
    values.map((v) => sql`${col}::text ${likeFor(String(v))} ${wrap(likeEscape(String(v)))}`),
    sql` or `,
  )})`;
/** NOT, keeping NULL rows (Django's exclude() keeps rows whose value is NULL) */
const not = (c: Cond, col: Cond, nullable: boolean) => (nullable ? sql`(${col} is null or not ${c})` : sql`not ${c}`);

const exact: LookupFn = (col, v) => equalsAny(col, v);
const negate: LookupFn = (col, v, nullable) => not(equalsAny(col, v), col, nullable);

export const STRING_LOOKUPS: Record<string, LookupFn> = {
  exact,
  n: negate,
  ic: (col, v) => orLike(col, v, (s) => `%${s}%`),
  nic: (col, v, nl) =>
    not(
      orLike(col, v, (s) => `%${s}%`),
      col,
      nl,
    ),
  isw: (col, v) => orLike(col, v, (s) => `${s}%`),
  nisw: (col, v, nl) =>
    not(
      orLike(col, v, (s) => `${s}%`),
      col,
      nl,
    ),
  iew: (col, v) => orLike(col, v, (s) => `%${s}`),
  niew: (col, v, nl) =>
    not(
      orLike(col, v, (s) => `%${s}`),
      col,
      nl,
    ),
  ie: (col, v) => orLike(col, v, (s) => s),
  nie: (col, v, nl) =>
    not(
      orLike(col, v, (s) => s),
      col,
      nl,
    ),
  empty: (col, v) => (v[0] ? sql`(${col} is null or ${col} = '')` : sql`(${col} is not null and ${col} <> '')`),
};

/** Comparisons with values of one SQL type (`cast`), or of the column's type when no cast is given. */
function comparisons(cast?: string): Record<string, LookupFn> {
  const typed = (v: unknown) => (cast ? sql`${v}::${sql.raw(cast)}` : sql`${v}`);
  const anyTyped = (col: Cond, values: unknown[]) => equalsAny(col, values, cast);
  return {
    exact: anyTyped,
    n: (col, v, nullable) => not(anyTyped(col, v), col, nullable),
    lt: (col, v) => sql`${col} < ${typed(v[0])}`,
    lte: (col, v) => sql`${col} <= ${typed(v[0])}`,
    gt: (col, v) => sql`${col} > ${typed(v[0])}`,
    gte: (col, v) => sql`${col} >= ${typed(v[0])}`,
    empty: (col, v) => (v[0] ? sql`${col} is null` : sql`${col} is not null`),
  };
}

/** dates, timestamps, decimals: compared as the column's type */
export const NUMERIC_LOOKUPS: Record<string, LookupFn> = comparisons();

/**
 * integers: compared as bigint whatever the column's width, so a value past a smallint or integer
 * column's range matches nothing instead of failing the statement (PostgreSQL compares across
 * integer widths with the column's index still usable)
 */
export const INTEGER_LOOKUPS: Record<string, LookupFn> = comparisons('bigint');

/** choices, foreign keys, booleans, tags: exact and n only (reference 8.1) */
export const EXACT_LOOKUPS: Record<string, LookupFn> = { exact, n: negate };

/** lookups whose value is a boolean rather than a field value */
export const BOOLEAN_VALUED = new Set(['empty']);

export const LOOKUPS_BY_KIND: Record<string, Record<string, LookupFn>> = {
  string: STRING_LOOKUPS,
  text: STRING_LOOKUPS,
  slug: STRING_LOOKUPS,
  integer: INTEGER_LOOKUPS,
  decimal: NUMERIC_LOOKUPS,
  date: NUMERIC_LOOKUPS,
  datetime: NUMERIC_LOOKUPS,
  choice: EXACT_LOOKUPS,
  choiceless: EXACT_LOOKUPS,
  boolean: { exact },
  fk: EXACT_LOOKUPS,
};
