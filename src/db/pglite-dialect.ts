/**
 * Kysely dialect for PGlite. PGlite holds a single connection, so connections are handed out one
 * at a time (a FIFO mutex); PostgreSQL's SQL compiler and adapter are reused unchanged.
 */
import type { PGlite } from '@electric-sql/pglite';
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
import { typeParsers } from './type-parsers.js';

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const res = await this.db.query<R>(compiled.sql, compiled.parameters as unknown[], { parsers: typeParsers });
    const affected = res.affectedRows;
    return {
      rows: res.rows,
      ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream');
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private releasers = new Map<DatabaseConnection, () => void>();

  constructor(private readonly db: PGlite) {
    this.connection = new PGliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const previous = this.queue;
    this.queue = previous.then(() => held);
    await previous;
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
    release?.();
  }

  async destroy(): Promise<void> {
    await this.db.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
