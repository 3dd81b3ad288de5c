/**
 * The Query the patched driver sends each of Kysely's statements as: a subclass of pg's Query
 * (pg accepts any Query, or any object with `submit`, as `client.query`'s argument), so no
 * function of pg is replaced. It differs from a Query made from `{ name, text, values, rowMode }`
 * in three ways:
 *
 * - its config is not copied: pg copies an object config through
 *   `Object.defineProperties(Object.create(proto), Object.getOwnPropertyDescriptors(config))`
 *   (lib/utils.js normalizeQueryConfig), V8's slow path, 3-4.5 us a statement; a text alone is
 *   made `{ text }`, so the rest is set here;
 * - rows come as arrays (pg's rowMode 'array'), made objects by a builder compiled per column
 *   list (row-builders.ts);
 * - a named statement's result is described once per connection (described-once.ts).
 *
 * pg is pinned to an exact version (package.json): test/unit/pg-driver-query.test.ts checks that a
 * DriverQuery holds what pg's own Query holds, and test/unit/pg-described-once.test.ts the kept
 * descriptions on a server.
 */
import pg from 'pg';
import { type Described, describable, keep, keptFor, type PgConnection } from './described-once.js';

/** the members of pg's Query (lib/query.js) and Result (lib/result.js) this reads or sets */
interface PgResult {
  fields: FieldDefs;
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: unknown;
}
type FieldDefs = Described['fields'];
interface PgQueryMembers {
  name?: string;
  text: string;
  values?: unknown[];
  portal: string;
  rows?: number;
  binary?: boolean;
  callback?: (err: Error | null, result?: unknown) => void;
  _rowMode?: string;
  _result: PgResult;
  _results: PgResult | PgResult[];
  _accumulateRows: unknown;
  listeners(event: string): unknown[];
  handleError(err: unknown, connection: PgConnection): void;
  _getRows(connection: PgConnection, rows?: number): void;
  prepare(connection: PgConnection): void;
  handleRowDescription(msg: { fields: FieldDefs }): void;
}
const PgQuery = pg.Query as unknown as new (text: string) => PgQueryMembers;
const PgResult = pg.Result as unknown as new (rowMode: string) => PgResult;
const { prepareValue } = (pg as unknown as { utils: { prepareValue: (v: unknown) => unknown } }).utils;

export class DriverQuery extends PgQuery {
  /** the connection whose description this query will keep (set by prepare) */
  private describedOn?: PgConnection;

  constructor(text: string, values: unknown[], name: string | undefined) {
    super(text);
    this.values = values;
    if (name) this.name = name;
    this._rowMode = 'array';
    this._result = this._results = new PgResult('array');
  }

  override prepare(connection: PgConnection): void {
    const kept = keptFor(this, connection);
    if (!kept) {
      if (describable(this)) this.describedOn = connection;
      super.prepare(connection);
      return;
    }
    // pg's prepare, less Parse (the statement is prepared here) and Describe (its answer is kept)
    try {
      connection.bind({
        portal: this.portal,
        statement: this.name,
        values: this.values,
        binary: this.binary,
        valueMapper: prepareValue,
      });
    } catch (err) {
      connection.close({ type: 'S', name: this.name as string });
      connection.sync();
      this.handleError(err, connection);
      return;
    }
    const result = this._result;
    result.fields = kept.fields;
    result._parsers = kept.parsers;
    result._prebuiltEmptyResultObject = kept.empty;
    // as pg's handleRowDescription decides it
    this._accumulateRows = this.callback || !this.listeners('row').length;
    this._getRows(connection, this.rows);
  }

  override handleRowDescription(msg: { fields: FieldDefs }): void {
    super.handleRowDescription(msg);
    const connection = this.describedOn;
    if (!connection || !describable(this)) return;
    const r = this._result;
    keep(connection, this.name, { fields: r.fields, parsers: r._parsers, empty: r._prebuiltEmptyResultObject });
  }
}
