/**
 * One replica: its pool, and what was last learned of it (replayed WAL, a snapshot, lag), asked
 * at most every FRESH_MS by whichever request needs it first; concurrent askers share the question.
 */
import type pg from 'pg';
import { parseLsn, type ReplicaView } from './choose-reader.js';

/** positions this young are reused: a busy process asks each replica at most 50 times a second */
const FRESH_MS = 20;
/** positions older than this are not trusted (the replica stopped answering): unknown */
const STALE_MS = 1_000;
/** a replica that failed is skipped this long, then asked again */
const RETRY_MS = 1_000;
/** WAL positions seen waiting to be applied that are remembered to measure the lag */
const MAX_MARKS = 64;

// on a server that is no standby (a replica promoted, or a primary named by mistake) everything
// written is "replayed"; CASE evaluates pg_current_wal_insert_lsn() only there (it fails in recovery)
const POSITIONS = `select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()
  else pg_current_wal_insert_lsn() end::text as replayed, pg_last_wal_receive_lsn()::text as received`;
// asked after POSITIONS, so it shows at least what was replayed then (README.md, "Caches")
const SNAPSHOT = 'select pg_current_snapshot()::text as snapshot';

export class ReplicaNode {
  private replayed: bigint | null = null;
  /** the replica's snapshot when `replayed` was read or later: the data version of its reads */
  snapshot = '';
  private lagMs = 0;
  private downUntil = 0;
  private askedAt = Number.NEGATIVE_INFINITY;
  private asking: Promise<void> | null = null;
  /** WAL known to exist (received by the replica, or committed on the primary) and not yet replayed, with when it was first seen */
  private marks: Array<{ lsn: bigint; since: number }> = [];
  /** statements of requests this replica answered */
  reads = 0;

  constructor(
    readonly url: string,
    readonly pool: pg.Pool,
    private readonly onDown: (url: string, err: unknown) => void,
  ) {}

  view(now = Date.now()): ReplicaView {
    const known = now - this.askedAt < STALE_MS;
    return { replayed: known ? this.replayed : null, lagMs: this.lagMs, down: this.downUntil > now };
  }

  /** skipped for RETRY_MS: a fault on one of its connections, or a question it could not answer */
  markDown(err: unknown): void {
    if (this.downUntil <= Date.now()) this.onDown(this.url, err);
    this.downUntil = Date.now() + RETRY_MS;
    this.replayed = null;
    this.marks = [];
  }

  /**
   * Asks the positions again unless they are younger than FRESH_MS (`force`: unless a question is
   * already on its way); `primaryWal`: the newest commit position this process knows of. Answers
   * the question on its way, or null when none is.
   */
  refresh(primaryWal: bigint | null, force = false): Promise<void> | null {
    if (this.downUntil > Date.now()) return null;
    if (!this.asking && (force || Date.now() - this.askedAt >= FRESH_MS)) {
      this.asking = this.ask(primaryWal).finally(() => {
        this.asking = null;
      });
    }
    return this.asking;
  }

  private async ask(primaryWal: bigint | null): Promise<void> {
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const pos = (await client.query<{ replayed: string; received: string | null }>(POSITIONS)).rows[0]!;
      const snap = (await client.query<{ snapshot: string }>(SNAPSHOT)).rows[0]!;
      client.release();
      const now = Date.now();
      this.replayed = parseLsn(pos.replayed);
      this.snapshot = snap.snapshot;
      this.askedAt = now;
      this.measureLag(pos.received === null ? null : parseLsn(pos.received), primaryWal, now);
    } catch (err) {
      client?.release(err as Error);
      this.markDown(err);
    }
  }

  /**
   * The lag: how long the oldest WAL known to exist and not yet replayed has been known. Not
   * `now() - pg_last_xact_replay_timestamp()`, which counts the idle time before a write as lag.
   */
  private measureLag(received: bigint | null, primaryWal: bigint | null, now: number): void {
    const replayed = this.replayed!;
    let ahead = received ?? replayed;
    if (primaryWal !== null && primaryWal > ahead) ahead = primaryWal;
    this.marks = this.marks.filter((m) => m.lsn > replayed);
    const last = this.marks[this.marks.length - 1];
    // full: the oldest marks are kept, so the lag is never overstated and still grows
    if (ahead > replayed && (!last || ahead > last.lsn) && this.marks.length < MAX_MARKS) {
      this.marks.push({ lsn: ahead, since: now });
    }
    this.lagMs = this.marks.length > 0 ? now - this.marks[0]!.since : 0;
  }
}
