/**
 * A filter condition that is an OR of alternatives, each of which an index can serve on its own
 * (the address search: a DNS name, a description, an address range). PostgreSQL reads a page of
 * such an OR in the page's order, testing every row until a page of matches turns up: when the
 * matches sit late in that order it reads most of the table (`ip-addresses/?q=10.7.`: 17,500 rows of
 * 20,000, half a million of a million). A page of it can instead take the first rows of each
 * alternative in the page order, each through its own index, and order those few
 * (crud/list-page.ts narrowToAlternatives). The total still counts the OR; the page reads the
 * alternatives' ids in its place, so together they must match exactly the rows the OR matches,
 * and each only rows it matches.
 */
import { sql } from 'kysely';
import type { Cond } from './lookups.js';

const alternativesOf = new WeakMap<Cond, Cond[]>();

/**
 * `(a or b or ...)` of `parts`, with `alternatives` a page may read apart: conditions whose OR
 * matches the same rows, each narrow enough for an index of its own
 */
export function anyOfAlternatives(parts: Cond[], alternatives: Cond[]): Cond {
  const cond = sql`(${sql.join(parts, sql` or `)})`;
  alternativesOf.set(cond, alternatives);
  return cond;
}

/** the alternatives of a condition built by anyOfAlternatives, if it was */
export function alternatives(cond: Cond): Cond[] | undefined {
  return alternativesOf.get(cond);
}
