/**
 * The pool a read request's Kysely gets (Kysely's `PostgresPool` interface): each statement goes to
 * the request's replica, except what a standby cannot or must not run, which goes to the primary and
 * keeps the rest of the request there (so the request reads what it wrote):
 *
 * - a statement that may write (statement-writes.ts `mayWrite`: a token's `last_used`, a page that
 *   saves a preference) and a transaction (BEGIN ... COMMIT, one connection of Kysely's);
 * - a statement the replica refused as read-only (25006: `select ... for update`, `nextval`), or
 *   cancelled for a conflict with recovery (40001), sent again to the primary;
 * - every statement after a connection fault on the replica: the replica is skipped for a while,
 *   and the failed read is sent again to the primary, so the request does not fail for it.
 */
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { mayWrite } from '../statement-writes.js';
import { isConnectionFault, isReadOnlyServer } from '../connection-faults.js';
import type { ReplicaNode } from './replica-node.js';

/** The request's route: which replica, and whether it has been moved to the primary. */
export interface ReadRoute {
  replica: ReplicaNode;
  /** true once a statement had to go to the primary: the rest of the request follows it */
  onPrimary: boolean;
  /** true once the request wrote (on the primary): its user's position is recorded after it */
  wrote: boolean;
}

/** 40001 serialization_failure: on a standby, "canceling statement due to conflict with recovery" */
const RECOVERY_CONFLICT = '40001';

function belongsOnPrimary(err: unknown): boolean {
  return isReadOnlyServer(err) || (err as { code?: unknown } | null)?.code === RECOVERY_CONFLICT;
}

export function routingPool(route: ReadRoute, primary: PostgresPool): PostgresPool {
  return {
    // Kysely streams through a cursor only when its dialect is given one; this one is not
    connect: async () => new RoutingClient(route, primary) as unknown as PostgresPoolClient,
    // the pools are the database's, closed with it
    end: async () => undefined,
  };
}

class RoutingClient {
  private primaryClient: Promise<PostgresPoolClient> | null = null;
  private replicaClient: pg.PoolClient | null = null;

  constructor(
    private readonly route: ReadRoute,
    private readonly primary: PostgresPool,
  ) {}

  private onPrimary(): Promise<PostgresPoolClient> {
    this.route.onPrimary = true;
    this.primaryClient ??= this.primary.connect();
    return this.primaryClient;
  }

  async query<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    const { route } = this;
    // a transaction's first statement is its BEGIN: the connection is the primary's until released
    const write = /^(begin|start)\b/i.test(text) || mayWrite(text);
    if (write) route.wrote = true;
    if (route.onPrimary || write || this.primaryClient) return (await this.onPrimary()).query<R>(text, values);
    try {
      this.replicaClient ??= await route.replica.pool.connect();
      const result = await this.replicaClient.query(text, values as unknown[]);
      route.replica.reads++;
      return result as unknown as PostgresQueryResult<R>;
    } catch (err) {
      if (isConnectionFault(err)) {
        route.replica.markDown(err);
        this.replicaClient?.release(err as Error);
        this.replicaClient = null;
      } else if (!belongsOnPrimary(err)) {
        throw err;
      }
      return (await this.onPrimary()).query<R>(text, values);
    }
  }

  release(): void {
    this.replicaClient?.release();
    this.replicaClient = null;
    const p = this.primaryClient;
    this.primaryClient = null;
    void p?.then(
      (c) => c.release(),
      () => undefined,
    );
  }
}
