/**
 * The pool Kysely's PostgresDialect is given when DATABASE_URL names several hosts (or asks for a
 * target_session_attrs): Kysely needs only `connect()` and `end()` (its PostgresPool interface), so
 * this holds one pg pool for the host found and hands its connections out. No statement is added to
 * a request: hosts are asked at the start and again only after a fault.
 *
 * A fault (a connection refused or dropped, or a write refused because the server is read-only,
 * SQLSTATE 25006) starts a search: every host is asked at once; the same host found again (a
 * dropped backend, a restart) keeps the pool, another one gets a new pool and the old one is ended,
 * and none found (the primary died, the standby not yet promoted) leaves no pool, so requests fail
 * at once with a connection fault (a 503 with Retry-After) while the search goes on with backoff.
 */
import type pg from 'pg';
import { isConnectionFault, isReadOnlyServer } from '../connection-faults.js';
import type { HostList } from './hosts.js';
import { describeStates, findHost } from './probe.js';

/** waits between searches while no host fits: the new primary is found within about a second of its promotion */
const BACKOFF_MS = [250, 500, 1_000];

/** a connection fault (SQLSTATE 08001) for a request made while no host fits */
function noHostError(reason: string): Error {
  return Object.assign(new Error(`no host of DATABASE_URL fits now (${reason})`), { code: '08001' });
}

export class FailoverPool {
  private current: { index: number; pool: pg.Pool } | null = null;
  private searching = false;
  private lastReason = 'not yet searched';
  private ended = false;
  private retry: NodeJS.Timeout | null = null;
  /** the host used last, kept while none fits: where the change watch reconnects meanwhile */
  private lastIndex: number | null = null;
  /** told after the pool moved to another host (the change watch listens there too) */
  onSwitch: (() => void) | null = null;

  constructor(
    private readonly list: HostList,
    private readonly makePool: (url: string) => pg.Pool,
  ) {}

  /** Finds the first host; throws when none fits, as libpq does at connect. */
  async start(): Promise<void> {
    const { index, states } = await findHost(this.list);
    if (index < 0) {
      throw new Error(
        `DATABASE_URL: no host is a ${this.list.target} server (target_session_attrs): ${describeStates(this.list, states)}`,
      );
    }
    this.use(index);
  }

  /** the single-host URL of the host in use (the change watch and the analyze round connect there) */
  currentUrl(): string {
    return this.list.urls[this.current?.index ?? this.lastIndex ?? 0]!;
  }

  /** the pool in use, for its counts; null while no host fits */
  get pool(): pg.Pool | null {
    return this.current?.pool ?? null;
  }

  connect(): Promise<pg.PoolClient> {
    const pool = this.current?.pool;
    if (!pool) return Promise.reject(noHostError(this.lastReason));
    return pool.connect().catch((e: unknown) => {
      this.noticeError(e);
      throw e;
    });
  }

  /** a statement's or a connection's error: a fault that may mean another host is primary now */
  noticeError(e: unknown): void {
    // while a retry waits, that retry is the search
    if ((isConnectionFault(e) || isReadOnlyServer(e)) && this.retry === null) void this.search(0);
  }

  async end(): Promise<void> {
    this.ended = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const pool = this.current?.pool;
    this.current = null;
    await pool?.end();
  }

  private use(index: number): void {
    if (this.current?.index === index) return;
    const old = this.current?.pool;
    this.current = { index, pool: this.makePool(this.list.urls[index]!) };
    // the old pool's idle connections close now, busy ones when their request releases them
    void old?.end().catch(() => undefined);
    const moved = this.lastIndex !== null && this.lastIndex !== index;
    this.lastIndex = index;
    if (moved) this.onSwitch?.();
  }

  private drop(reason: string): void {
    this.lastReason = reason;
    const old = this.current?.pool;
    if (old) {
      this.current = null;
      void old.end().catch(() => undefined);
    }
  }

  /** one search, then more with backoff until a host fits; several faults at once share it */
  private async search(attempt: number): Promise<void> {
    if (this.searching || this.ended) return;
    this.searching = true;
    try {
      const { index, states } = await findHost(this.list);
      if (this.ended) return;
      if (index >= 0) return this.use(index);
      this.drop(describeStates(this.list, states));
    } catch (e) {
      this.drop((e as Error).message);
    } finally {
      this.searching = false;
    }
    if (this.current || this.ended) return;
    const wait = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.search(attempt + 1);
    }, wait);
    this.retry.unref();
  }
}
