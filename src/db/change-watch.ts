/**
 * The data generation: a number that moves whenever stored data may have changed, so read caches
 * (the list count cache) can tell a fresh entry from a stale one without asking the database.
 *
 * Every statement this process runs is observed (Kysely's log hook, which also sees begin, commit
 * and rollback): anything that is not a plain read moves the generation once it has completed. A
 * cached value is stored with the generation read *before* its query ran, so a write that commits
 * while the query runs makes it stale.
 *
 * Other processes on the same PostgreSQL server learn of writes through LISTEN/NOTIFY: after a
 * commit (or a write outside any transaction), this process sends a notification naming the tables
 * written on its listening connection, and every listener moves its own generation and those
 * tables' when it arrives (a few milliseconds after the commit; table-generations.ts). While the listening
 * connection is down, `reliable` is false and caches must not be used. On PGlite there is one
 * process and one connection, so local observation is the whole story.
 *
 * Notifications are sent only while another process listens (peers). Each process says hello when
 * it starts listening and every heartbeat after; a process heard from within the peer TTL is a
 * peer. A process alone - the default single `serve` - sends none once it has listened for longer
 * than a heartbeat (by then every live peer has said hello; until then it notifies as if it had
 * peers): under load there was one NOTIFY for every other create, each a round trip and a
 * wake-up of the sender's own listener. A process that hears a new peer tells it "every table" at
 * once, so a write committed before the hello arrived cannot stay hidden from the newcomer's caches
 * longer than a notification's delay.
 */
import { randomUUID } from 'node:crypto';
import { mayWrite, scriptMayWrite } from './statement-writes.js';
import pg from 'pg';
import { TableGenerations } from './table-generations.js';

const CHANNEL = 'inventory_data_changed';
const RECONNECT_MS = 1_000;
export interface PeerTiming {
  /** a process says hello this often */
  heartbeatMs: number;
  /** a peer not heard from for this long is gone */
  peerTtlMs: number;
  /** after listening this long (more than a heartbeat), every live peer has been heard from */
  learnMs: number;
}

const PEER_TIMING: PeerTiming = { heartbeatMs: 30_000, peerTtlMs: 75_000, learnMs: 35_000 };
/** the payload's second word in a hello: no table is named so (table names are [a-z0-9_]) */
const HELLO = '~hello';
export const APPLICATION_NAME = 'inventory-change-watch';

export interface ChangeWatch {
  /** moves whenever data may have changed; compare a value read before a query with one read after */
  readonly generation: number;
  /** false while changes made by other processes might go unnoticed: do not use caches then */
  readonly reliable: boolean;
  /** a version of these tables' data, moving whenever one of them may have changed (table-generations.ts) */
  tableVersion(tables: readonly string[]): string;
  /** called after each executed statement with its text */
  observe(sqlText: string): void;
  /**
   * called after a script ran whole (Database.exec: migrations, maintenance): its own BEGIN and
   * COMMIT opened and closed no transaction the others can see, so it is not read statement by
   * statement; a script that may write moves every table
   */
  observeScript(script: string): void;
  /**
   * the server to listen on may have changed (a failover found another primary): listen there now
   * if it did. A watch still connected to a demoted primary that stayed up would otherwise hear
   * nothing the new primary's processes announce, and caches would serve stale data.
   */
  follow(): void;
  close(): Promise<void>;
}

function applicationName(connectionString: string): string {
  try {
    return new URL(connectionString).searchParams.get('application_name') ?? APPLICATION_NAME;
  } catch {
    return APPLICATION_NAME;
  }
}

/**
 * What this process's own statements moved: the generation and the table versions. Both watches
 * observe through it; the PostgreSQL one also tells its peers what moved.
 */
class LocalChanges {
  generation = 0;
  readonly tables = new TableGenerations();

  /** the tables to tell other processes about now, or null (table-generations.ts) */
  observe(sqlText: string): string[] | null {
    const write = mayWrite(sqlText);
    const told = this.tables.observe(sqlText, write);
    if (write) this.generation++;
    return told;
  }

  /** true when the script may have written: every table moved */
  observeScript(script: string): boolean {
    if (!scriptMayWrite(script)) return false;
    this.moveAll();
    return true;
  }

  moveAll(): void {
    this.tables.moveAll();
    this.generation++;
  }
}

/** The embedded engine: one process, every write passes through observe(). */
export function localChangeWatch(): ChangeWatch {
  const local = new LocalChanges();
  return {
    get generation() {
      return local.generation;
    },
    reliable: true,
    tableVersion: (names) => local.tables.version(names),
    observe: (sqlText) => void local.observe(sqlText),
    observeScript: (script) => void local.observeScript(script),
    follow: () => undefined,
    close: async () => undefined,
  };
}

/** PostgreSQL: local observation plus LISTEN/NOTIFY between the processes sharing the database. */
export function postgresChangeWatch(
  /**
   * the server to listen on, asked at each (re)connect: after a failover, the new primary; null
   * behind PgBouncer without a direct URL, where LISTEN cannot work: never reliable, no cache used
   */
  server: string | (() => string) | null,
  onError: (e: Error) => void = () => undefined,
  timing: PeerTiming = PEER_TIMING,
): ChangeWatch {
  const local = new LocalChanges();
  let reliable = false;
  const instance = randomUUID();
  let closed = false;
  let client: pg.Client | null = null;
  // the server the current client listens on, and whether it is being left for another
  let listeningOn = '';
  let moving = false;
  // a notification is owed for a write observed since the last one was sent, naming its tables
  let owed = false;
  const owedTables = new Set<string>();
  let sending = false;

  const connect = async () => {
    if (closed || server === null) return;
    const connectionString = typeof server === 'string' ? server : server();
    // named, so operators can tell it apart in pg_stat_activity (unless the URL names it)
    const c = new pg.Client({ connectionString, application_name: applicationName(connectionString) });
    const down = (e?: Error) => {
      if (client !== c) return;
      client = null;
      reliable = false;
      // leaving a server on purpose is no fault: the new one is listened on at once
      if (e && !moving) onError(e);
      const wait = moving ? 0 : RECONNECT_MS;
      moving = false;
      if (!closed) setTimeout(() => void connect(), wait).unref();
    };
    c.on('error', down);
    c.on('end', () => down());
    // this process's own writes moved the generation when they ran
    c.on('notification', (n) => {
      const [from = '', named = '*'] = (n.payload ?? '').split(' ');
      if (from === instance) return;
      // a newcomer may have read what this process wrote before its hello arrived
      if (!isPeer(from)) owe(['*'], true);
      peers.set(from, Date.now());
      if (named === HELLO) return;
      if (named === '*') return local.moveAll();
      local.generation++;
      local.tables.move(named.split(','));
    });
    client = c;
    listeningOn = connectionString;
    try {
      await c.connect();
      await c.query(`listen ${CHANNEL}`);
      // whatever happened while nobody listened is unknown: start a new generation
      local.moveAll();
      listeningSince = Date.now();
      reliable = !closed;
      if (closed) await c.end();
      else await sayHello();
    } catch (e) {
      down(e as Error);
    }
  };

  // other processes listening, by instance: when each was last heard from
  const peers = new Map<string, number>();
  let listeningSince = 0;
  const hasPeers = () => {
    const now = Date.now();
    // not listening long enough to have heard every live peer: assume there are some
    if (now - listeningSince < timing.learnMs) return true;
    for (const [id, at] of peers) {
      if (now - at <= timing.peerTtlMs) return true;
      peers.delete(id);
    }
    return false;
  };
  const isPeer = (id: string) => Date.now() - (peers.get(id) ?? -Infinity) <= timing.peerTtlMs;
  const sayHello = () =>
    client?.query(`notify ${CHANNEL}, '${instance} ${HELLO}'`).then(
      () => sendOwed(),
      (e: Error) => onError(e),
    );
  const heartbeat = setInterval(() => void (reliable && sayHello()), timing.heartbeatMs);
  heartbeat.unref();

  const sendOwed = async () => {
    if (sending) return;
    sending = true;
    try {
      while (owed && client && reliable) {
        owed = false;
        // table names are [a-z0-9_] (tablesWritten); a long list is told as "every table"
        let named = owedTables.has('*') ? '*' : [...owedTables].join(',');
        if (named.length > 4_000) named = '*';
        owedTables.clear();
        await client.query(`notify ${CHANNEL}, '${instance} ${named}'`).catch((e: Error) => onError(e));
      }
    } finally {
      sending = false;
    }
  };

  /** tells the peers what moved; alone, nobody is told (`force`: a newcomer is, though not yet a peer) */
  const owe = (told: string[], force = false) => {
    if (!force && !hasPeers()) return;
    for (const t of told) owedTables.add(t);
    owed = true;
    void sendOwed();
  };

  void connect();
  return {
    get generation() {
      return local.generation;
    },
    get reliable() {
      return reliable;
    },
    tableVersion: (names) => local.tables.version(names),
    observe(sqlText) {
      // other processes are told what moved once it may be visible to them (table-generations.ts)
      const told = local.observe(sqlText);
      if (told) owe(told);
    },
    observeScript(script) {
      if (local.observeScript(script)) owe(['*']);
    },
    follow() {
      const c = client;
      if (!c || moving || typeof server !== 'function' || server() === listeningOn) return;
      moving = true;
      // its 'end' reconnects (down above), to the server asked for then
      void c.end().catch(() => undefined);
    },
    async close() {
      closed = true;
      clearInterval(heartbeat);
      reliable = false;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/** Resolves once the watch is reliable (PostgreSQL: listening), or after `timeoutMs`. */
export async function whenReliable(watch: ChangeWatch, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!watch.reliable && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}
