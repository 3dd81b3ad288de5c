/**
 * A named statement's result description, asked of PostgreSQL once per connection.
 *
 * pg asks the server to describe the result of every execution, prepared statement or not
 * (lib/query.js prepare: Bind, Describe, Execute, Sync). The answer, a RowDescription, is parsed
 * into one object per column, and pg builds a parser per column again (lib/result.js addFields):
 * 5.6-5.9 + 6.9-10.5 us for a result of 20 columns, 17-23 + 22-38 us for 60 (bench/README.md).
 *
 * A prepared statement's result cannot change while it stays prepared: PostgreSQL refuses to run
 * one whose plan would change its result's columns ("cached plan must not change result type")
 * rather than answer with another shape. So the first description of a named statement on a
 * connection is kept with that connection, and later executions of the same statement there send
 * Bind, Execute and Sync only, their result given the kept columns and parsers. A statement pg
 * prepares again (its parse failed and was forgotten) is described again, as pg then sends Parse
 * once more; unnamed statements, portals read in pages and binary results go through pg as before.
 *
 * Used by DriverQuery (driver-query.ts), pg's Query subclass: nothing of pg is replaced.
 */
import type { FieldDef } from 'pg';

/** what a kept description gives a Result (pg's lib/result.js fields) */
export interface Described {
  fields: FieldDef[];
  parsers: unknown[] | undefined;
  empty: unknown;
}

/** the few members of pg's Connection this reads or calls */
export interface PgConnection {
  parsedStatements: Record<string, string>;
  bind(msg: Record<string, unknown>): void;
  close(msg: { type: 'S'; name: string }): void;
  sync(): void;
}

/** per connection, the kept descriptions by statement name (a connection's statements are few: statement-names.ts) */
const described = new WeakMap<PgConnection, Map<string, Described>>();

/** what of a query decides whether its description may be kept */
export interface Describable {
  name?: string;
  text: string;
  rows?: number;
  binary?: boolean;
}

/** A named statement read whole in text: portals read in pages (rows) and binary results keep pg's own path. */
export function describable(query: Describable): query is Describable & { name: string } {
  return !!query.name && !query.rows && !query.binary;
}

/** The kept description of this query's statement on this connection, if it may be used. */
export function keptFor(query: Describable, connection: PgConnection): Described | undefined {
  if (!describable(query)) return undefined;
  // prepared on this connection with this very text (pg forgets a name whose parse failed)
  if (connection.parsedStatements[query.name] !== query.text) return undefined;
  return described.get(connection)?.get(query.name);
}

/** Keeps the description a statement's first execution on this connection was given. */
export function keep(connection: PgConnection, name: string, description: Described): void {
  let byName = described.get(connection);
  if (!byName) described.set(connection, (byName = new Map()));
  byName.set(name, description);
}
