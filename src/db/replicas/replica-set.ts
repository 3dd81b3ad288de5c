/**
 * The replicas of DATABASE_REPLICA_URLS, and the choice of where each read request goes
 * (README.md): a replica that has replayed the reader's own last write, else a short wait for one,
 * else the primary.
 */
import { Kysely, type LogEvent, type PostgresPool, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Kdb } from '../client.js';
import { type ChoiceLimits, chooseReader, parseLsn } from './choose-reader.js';
import { FenceBatch } from './fence-batch.js';
import { ReplicaNode } from './replica-node.js';
import { type ReadRoute, routingPool } from './routing-pool.js';

/** how long a reader waits at most for a replica to replay its write before reading on the primary */
const WAIT_MS = 100;
/** how often a waiting reader asks the replica again */
const POLL_MS = 5;

// raw statements on the primary's pool, past Kysely: they are no data of the service's, and the
// change watch must not announce a write of them to every process (change-watch.ts)
// after the write committed: the insert position is at or past the end of its commit record
const RECORD_FENCE = `insert into users_write_position as w (user_id, lsn) values ($1, pg_current_wal_insert_lsn())
  on conflict (user_id) do update set lsn = greatest(w.lsn, excluded.lsn) returning lsn::text as lsn`;

/** A read request's executor on a replica, and the data version of what it reads there. */
export interface ReplicaRead {
  q: Kdb;
  route: ReadRoute;
  /** the replica's snapshot, taken after the position the choice relied on (core/cache/README.md) */
  dataVersion: string;
}

export interface ReplicaSetOptions {
  replicas: Array<{ url: string; pool: pg.Pool }>;
  maxLagMs: number;
  /** the pool the primary's Kysely uses */
  primary: PostgresPool;
  /** the database's statement observer (counts, metrics, change watch) */
  log: (event: LogEvent) => void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ReplicaSet {
  readonly nodes: ReplicaNode[];
  private readonly limits: ChoiceLimits;
  private turn = 0;
  /** the newest commit position this process has recorded or read */
  private primaryWal: bigint | null = null;
  /** read requests sent to the primary because no replica had replayed the reader's write */
  primaryReads = 0;
  /** the readers' write positions, asked of the primary for those arriving together at once */
  readonly fences: FenceBatch;
  /** replica faults since the start, by URL (the first of each spell of being down) */
  readonly faults: Array<{ url: string; error: string }> = [];

  constructor(private readonly opts: ReplicaSetOptions) {
    this.limits = { maxLagMs: opts.maxLagMs, waitMs: WAIT_MS };
    const onDown = (url: string, err: unknown) => {
      if (this.faults.length >= 100) this.faults.shift();
      this.faults.push({ url, error: err instanceof Error ? err.message : String(err) });
    };
    this.nodes = opts.replicas.map((r) => new ReplicaNode(r.url, r.pool, onDown));
    this.fences = new FenceBatch(opts.primary);
  }

  /** Where a read by `userId` (null: anonymous, who writes nothing) goes: a replica, or null for the primary. */
  async reader(userId: number | null): Promise<ReplicaRead | null> {
    const fence = userId === null ? Promise.resolve(null) : this.fenceOf(userId);
    // a replica slow to answer its question is not waited for longer than a reader would wait
    const asking = this.nodes.map((n) => n.refresh(this.primaryWal)).filter((p) => p !== null);
    if (asking.length > 0) await Promise.race([Promise.all(asking), sleep(WAIT_MS)]);
    let wall: bigint | null;
    try {
      wall = await fence;
    } catch {
      // the primary did not answer (it died, or a failover is under way): the read goes on on a
      // replica that is not lagging, without the reader's last write if it was not replayed
      // (docs/postgresql.md, "Read replicas"); with none usable, the primary tells the client (a 503)
      const choice = chooseReader(
        this.nodes.map((n) => n.view()),
        null,
        this.limits,
        this.turn++,
      );
      return choice.kind === 'replica' ? this.readOn(this.nodes[choice.index]!) : null;
    }
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const choice = chooseReader(
        this.nodes.map((n) => n.view()),
        wall,
        this.limits,
        this.turn++,
      );
      if (choice.kind === 'replica') return this.readOn(this.nodes[choice.index]!);
      if (choice.kind === 'primary' || Date.now() >= deadline) {
        this.primaryReads++;
        return null;
      }
      await sleep(POLL_MS);
      await this.nodes[choice.index]!.refresh(this.primaryWal, true);
    }
  }

  /** Records the primary's WAL position after `userId`'s write committed; a failure is only counted. */
  async recordWrite(userId: number): Promise<void> {
    try {
      const lsn = await this.onPrimary(RECORD_FENCE, userId);
      if (lsn !== null) this.know(lsn);
    } catch (err) {
      this.faults.push({ url: 'primary', error: err instanceof Error ? err.message : String(err) });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.pool.end().catch(() => undefined)));
  }

  private readOn(node: ReplicaNode): ReplicaRead {
    const route: ReadRoute = { replica: node, onPrimary: false, wrote: false };
    const dialect = new PostgresDialect({ pool: routingPool(route, this.opts.primary) });
    return { q: new Kysely({ dialect, log: this.opts.log }), route, dataVersion: node.snapshot };
  }

  private async fenceOf(userId: number): Promise<bigint | null> {
    const lsn = await this.fences.positionOf(userId);
    return lsn === null ? null : this.know(lsn);
  }

  private know(text: string): bigint {
    const lsn = parseLsn(text);
    if (this.primaryWal === null || lsn > this.primaryWal) this.primaryWal = lsn;
    return lsn;
  }

  private async onPrimary(text: string, userId: number): Promise<string | null> {
    const client = await this.opts.primary.connect();
    try {
      const { rows } = await client.query<{ lsn: string }>(text, [userId]);
      return rows[0]?.lsn ?? null;
    } finally {
      client.release();
    }
  }
}
