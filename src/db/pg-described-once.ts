/**
 * A named statement's result description, asked of PostgreSQL once per connection.
 *
 * pg asks the server to describe the result of every execution, prepared statement or not
 * (lib/query.js prepare: Bind, Describe, Execute, Sync). The answer, a RowDescription, is then
 * parsed into one object per column, and pg builds a parser per column again
 * (lib/result.js addFields). issue 15 measured both on this machine: 5.6-5.9 + 6.9-10.5 us for a
 * result of 20 columns, 17-23 + 22-38 us for 60 (bench/README.md, sixteenth session). A page of
 * sites has 21 columns, a device 32, an interface page 38; every statement paid it again.
 *
 * A prepared statement's result cannot change while it stays prepared: PostgreSQL refuses to run
 * one whose plan would change its result's columns ("cached plan must not change result type")
 * rather than answer with another shape. So the first description of a named statement on a
 * connection is kept with that connection, and later executions of the same statement there send
 * Bind, Execute and Sync only, their result given the kept columns and parsers. A statement pg
 * prepares again (its parse failed and was forgotten) is described again, as pg then sends Parse
 * once more; unnamed statements, portals read in pages and binary results go through pg as before.
 *
 * pg is pinned to an exact version (package.json); test/unit/pg-described-once.test.ts checks the
 * functions replaced here are still the ones pg's Query calls, and that results keep their columns.
 */
import type { FieldDef } from 'pg';
// pg's CommonJS modules, without type definitions of their own. Imported, not required: the
// service runs from one bundle (bin/compile-cache.js) that holds its own copy of pg, and only an
// import resolves to that copy; a require made at run time loaded pg's files from node_modules
// afresh, and patched a Query the service's pool never uses (so no description was kept)
// @ts-expect-error: no declaration file for pg/lib/query.js
import pgQuery from 'pg/lib/query.js';
// @ts-expect-error: no declaration file for pg/lib/utils.js
import pgUtils from 'pg/lib/utils.js';

/** what a kept description gives a Result (pg's lib/result.js fields) */
interface Described {
  fields: FieldDef[];
  parsers: unknown[] | undefined;
  empty: unknown;
}

/** the few members of pg's Connection, Query and Result this reads or calls */
interface PgConnection {
  parsedStatements: Record<string, string>;
  bind(msg: Record<string, unknown>): void;
  close(msg: { type: 'S'; name: string }): void;
  sync(): void;
}
interface PgResult {
  fields: FieldDef[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: unknown;
}
interface PgQuery {
  name?: string;
  text: string;
  values?: unknown[];
  portal: string;
  rows?: number;
  binary?: boolean;
  callback?: unknown;
  _result: PgResult;
  _accumulateRows: unknown;
  /** the connection whose description this query will keep (set by prepare below) */
  describedOn?: PgConnection;
  listeners(event: string): unknown[];
  handleError(err: unknown, connection: PgConnection): void;
  _getRows(connection: PgConnection, rows?: number): void;
}
type QueryProto = PgQuery & {
  prepare(this: PgQuery, connection: PgConnection): void;
  handleRowDescription(this: PgQuery, msg: { fields: FieldDef[] }): void;
  describesOnce?: true;
};

const Query = pgQuery as unknown as { prototype: QueryProto };
const { prepareValue } = pgUtils as unknown as { prepareValue: (v: unknown) => unknown };

/** per connection, the kept descriptions by statement name (a connection's statements are few: statement-names.ts) */
const described = new WeakMap<PgConnection, Map<string, Described>>();

/** A named statement read whole in text: portals read in pages (rows) and binary results keep pg's own path. */
function describable(query: PgQuery): query is PgQuery & { name: string } {
  return !!query.name && !query.rows && !query.binary;
}

/** The kept description of this query's statement on this connection, if it may be used. */
function keptFor(query: PgQuery, connection: PgConnection): Described | undefined {
  if (!describable(query)) return undefined;
  // prepared on this connection with this very text (pg forgets a name whose parse failed)
  if (connection.parsedStatements[query.name] !== query.text) return undefined;
  return described.get(connection)?.get(query.name);
}

export function installDescribedOnce(): void {
  const proto = Query.prototype;
  if (proto.describesOnce) return;
  const prepare = proto.prepare;
  const handleRowDescription = proto.handleRowDescription;

  proto.prepare = function (connection) {
    const kept = keptFor(this, connection);
    if (!kept) {
      if (describable(this)) this.describedOn = connection;
      prepare.call(this, connection);
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
  };

  proto.handleRowDescription = function (msg) {
    handleRowDescription.call(this, msg);
    const connection = this.describedOn;
    if (!connection || !describable(this)) return;
    let byName = described.get(connection);
    if (!byName) described.set(connection, (byName = new Map()));
    const r = this._result;
    byName.set(this.name, { fields: r.fields, parsers: r._parsers, empty: r._prebuiltEmptyResultObject });
  };
  proto.describesOnce = true;
}
