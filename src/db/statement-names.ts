/**
 * Which statements both engines prepare under a name (pg-driver/statement-name.ts for PostgreSQL, pglite-dialect.ts
 * for PGlite): the same text is then parsed and planned once per connection. Transaction control
 * gains nothing from it, and beyond a bounded number of distinct texts statements stay unnamed, so
 * dynamic filter combinations cannot grow the per-connection cache without limit.
 */
const MAX_NAMED = 2000;
const MAX_LENGTH = 50_000;

/** `named`: how many texts are named already */
export function worthNaming(text: string, named: number): boolean {
  return named < MAX_NAMED && text.length <= MAX_LENGTH && !/^\s*(begin|commit|rollback)/i.test(text);
}
