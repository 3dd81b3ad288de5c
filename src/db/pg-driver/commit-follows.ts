/**
 * Ends a statement's text when its transaction's COMMIT may be written right behind it (nothing
 * else is written in the transaction: core/crud/create-in-one.ts). With the driver's patches on,
 * the COMMIT shares the statement's write and round trip (driver-client.ts); the transaction's own
 * COMMIT, or a ROLLBACK after a failure, is then answered by that one. Plain pg and PGlite run the
 * text as it is (a comment) and commit as usual.
 */
export const COMMIT_FOLLOWS = '/* commit follows */';
