/**
 * The Client the patched pool opens (pg-pool's `Client` option): pg's Client, with `query`
 * sending Kysely's statements its own way. Kysely calls `query(text, values)` with its parameters
 * always given, `begin`, `commit` and `rollback` included; anything else (a migration script, pg's
 * own calls) goes to pg's `query` unchanged.
 *
 * - A statement runs as a DriverQuery (driver-query.ts), named when statement-name.ts names it;
 *   its id arrays go as array literals (id-arrays.ts).
 * - A transaction's BEGIN is written to the socket together with its first statement: one write
 *   and one round trip instead of two. The pool runs in pg's pipeline mode (a statement is written
 *   without waiting for the answer to the one before, pg 8.23), and the connection's stream is
 *   corked from BEGIN until the next statement joins it. Kysely always sends a statement after
 *   BEGIN (at least its COMMIT or ROLLBACK). That statement's answer waits for BEGIN's, so a failed
 *   BEGIN (a broken connection) fails it too.
 * - A statement whose text ends in COMMIT_FOLLOWS has the COMMIT written right behind it; the
 *   transaction's own COMMIT, or its ROLLBACK after a failure, is then answered by that one.
 */
import pg from 'pg';
import { rowsAsObjects } from '../row-builders.js';
import { COMMIT_FOLLOWS } from './commit-follows.js';
import { DriverQuery } from './driver-query.js';
import { idArrayLiteral } from './id-arrays.js';
import { StatementNames } from './statement-name.js';

interface PgClientMembers {
  query(...args: unknown[]): Promise<unknown>;
  connection: { stream: { cork(): void; uncork(): void } };
}
const PgClient = pg.Client as unknown as new (config?: pg.ClientConfig) => PgClientMembers;

/** the pool's option that carries its statement names to each client it makes (index.ts) */
interface DriverPoolConfig {
  statementNames: StatementNames;
}

export class DriverClient extends PgClient {
  /** the pool's names of statements: the same on each of its connections */
  private readonly names: StatementNames;
  /** a transaction's BEGIN, queued but not yet written (corked) */
  private began: Promise<unknown> | null = null;
  /** a transaction is open (Kysely's BEGIN sent, its COMMIT or ROLLBACK not yet) */
  private inTransaction = false;
  /** the COMMIT already sent behind a statement ending in COMMIT_FOLLOWS */
  private committed: Promise<unknown> | null = null;

  constructor(config?: pg.ClientConfig & Partial<DriverPoolConfig>) {
    super(config);
    this.names = config?.statementNames ?? new StatementNames();
  }

  override query(...args: unknown[]): Promise<unknown> {
    const [text, values] = args;
    if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) return super.query(...args);
    return this.statement(text, values);
  }

  private statement(text: string, values: unknown[]): Promise<unknown> {
    if (text === 'commit' || text === 'rollback') {
      this.inTransaction = false;
      if (this.committed) {
        // the transaction ended with that COMMIT: committed, or rolled back if a statement failed
        const done = this.committed;
        this.committed = null;
        return done;
      }
    }
    if (text === 'begin') {
      this.inTransaction = true;
      if (this.began === null) {
        this.connection.stream.cork();
        this.began = super.query(text, values);
        this.began.catch(() => undefined);
        return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [], fields: [] });
      }
    }
    const run = this.send(text, values.some(Array.isArray) ? values.map(idArrayLiteral) : values);
    if (this.inTransaction && this.committed === null && text.endsWith(COMMIT_FOLLOWS)) {
      this.committed = super.query('commit');
      this.committed.catch(() => undefined);
    }
    if (this.began === null) return run;
    const withBegin = Promise.all([this.began, run]).then(([, result]) => result);
    this.began = null;
    this.connection.stream.uncork();
    return withBegin;
  }

  /** one statement as a DriverQuery, its rows made objects */
  private send(text: string, values: unknown[]): Promise<unknown> {
    const query = new DriverQuery(text, values, this.names.nameFor(text));
    const done = new Promise<pg.QueryResult>((resolve, reject) => {
      query.callback = (err, result) => (err ? reject(err) : resolve(result as pg.QueryResult));
    });
    super.query(query);
    return done.then(rowsAsObjects);
  }
}
