/**
 * An array of integers (the ids of `id = any($1::bigint[])`, on every page) as its array literal.
 * pg writes each element of an array quoted and escaped through two regular expressions
 * (lib/utils.js arrayString); a heap profile of a page of addresses found that 3 % of its
 * allocations (bench/README.md). Anything else goes to pg as it is.
 */
export function idArrayLiteral(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  for (const v of value) if (!Number.isSafeInteger(v)) return value;
  return `{${value.join(',')}}`;
}
