/**
 * Kysely dialect for PGlite. PGlite holds a single connection, so connections are handed out one
 * at a time (a FIFO mutex); PostgreSQL's SQL compiler and adapter are reused unchanged.
 *
 * Statements are prepared once under a name and then only bound and executed, as the PostgreSQL
 * engine does with named statements (db/pg-driver/): PGlite's `query()` parses, describes and plans
 * every call, which took 4 of the 7 ms of a site detail (bench/, 0.9 ms prepared). PGlite exposes
 * the wire protocol for this (`execProtocolRawStream`, `protocol.serialize`); its replies are read
 * from the bytes (pglite-wire.ts).
 */
import { type PGlite, protocol } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Kysely,
} from 'kysely';
import { affectedRows, type Column, exchange, readReply } from './pglite-wire.js';
import { worthNaming } from './statement-names.js';
import { typeParsers } from './type-parsers.js';

const { serialize } = protocol;

interface Prepared {
  name: string;
  /** parameter type oids, to serialize values as PGlite's query() does */
  paramTypes: number[];
  /** result columns (name, type oid); empty for statements that return no rows */
  fields: Column[];
}

/**
 * The driver's transaction control, sent in the simple query protocol: one message, nothing to
 * parse or describe. PGlite's query() takes the extended protocol's five messages and builds a
 * result: 0.10-0.21 ms per BEGIN or COMMIT against 0.03, and a write is a BEGIN and a COMMIT
 * around its statements. It still goes through executeQuery, where Kysely's log sees it
 * (db/client.ts: the change watch follows transactions by their begin and commit).
 */
const CONTROL = new Set(['begin', 'commit', 'rollback']);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

class PGliteConnection implements DatabaseConnection {
  private readonly prepared = new Map<string, Prepared>();
  /** names are never reused: a statement dropped from the map still exists in the session */
  private named = 0;
  private readonly parsers: Record<number, (s: string, type: number) => unknown>;

  constructor(private readonly db: PGlite) {
    this.parsers = { ...(db.parsers as Record<number, (s: string, type: number) => unknown>), ...typeParsers };
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (CONTROL.has(compiled.sql)) {
      readReply(await exchange(this.db, serialize.query(compiled.sql)));
      return { rows: [] };
    }
    const params = compiled.parameters as unknown[];
    const statement = await this.prepare(compiled.sql);
    if (!statement) {
      const res = await this.db.query<R>(compiled.sql, params, { parsers: typeParsers });
      const affected = res.affectedRows;
      return { rows: res.rows, ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}) };
    }
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const ser = this.db.serializers[statement.paramTypes[i]!];
      return ser ? (ser(v) as string) : String(v);
    });
    try {
      const reply = readReply(
        await exchange(
          this.db,
          concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
        ),
      );
      return { rows: this.rows<R>(statement.fields, reply.rows), numAffectedRows: BigInt(affectedRows(reply.tags)) };
    } catch (e) {
      // a schema change altered the statement's result columns: prepare it again next time
      if ((e as { code?: string }).code === '0A000') this.prepared.delete(compiled.sql);
      throw e;
    }
  }

  /** The named statement of a text, prepared on first use; null where statements stay unnamed. */
  private async prepare(text: string): Promise<Prepared | null> {
    const known = this.prepared.get(text);
    if (known) return known;
    if (!worthNaming(text, this.prepared.size)) return null;
    const name = `p${++this.named}`;
    const reply = readReply(
      await exchange(
        this.db,
        concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      ),
    );
    const statement = { name, paramTypes: reply.paramTypes ?? [], fields: reply.columns ?? [] };
    this.prepared.set(text, statement);
    return statement;
  }

  /** Rows as objects keyed by column name, each value through the type's parser. */
  private rows<R>(fields: Column[], texts: Array<Array<string | null>>): R[] {
    const parsers = fields.map((f) => this.parsers[f.dataTypeID]);
    const rows: R[] = [];
    for (const values of texts) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const v = values[i];
        const parse = parsers[i];
        row[fields[i]!.name] = v === null || v === undefined ? null : parse ? parse(v, fields[i]!.dataTypeID) : v;
      }
      rows.push(row as R);
    }
    return rows;
  }

  // biome-ignore lint/correctness/useYield: Kysely asks for a generator; this one only refuses
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream');
  }
}

/** Who holds the one connection and how many wait for it (the pool gauges of /metrics). */
export interface ConnectionUse {
  inUse: 0 | 1;
  waiting: number;
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private releasers = new Map<DatabaseConnection, () => void>();

  constructor(
    private readonly db: PGlite,
    private readonly use: ConnectionUse,
  ) {
    this.connection = new PGliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const previous = this.queue;
    this.queue = previous.then(() => held);
    this.use.waiting++;
    try {
      await previous;
    } finally {
      this.use.waiting--;
    }
    this.use.inUse = 1;
    this.releasers.set(this.connection, release);
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'begin', parameters: [] } as unknown as CompiledQuery);
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'commit', parameters: [] } as unknown as CompiledQuery);
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'rollback', parameters: [] } as unknown as CompiledQuery);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const release = this.releasers.get(conn);
    this.releasers.delete(conn);
    this.use.inUse = 0;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.db.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(
    private readonly db: PGlite,
    private readonly use: ConnectionUse = { inUse: 0, waiting: 0 },
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db, this.use);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
