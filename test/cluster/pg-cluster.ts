/**
 * A PostgreSQL primary and a streaming standby for failover tests, made from the machine's
 * PostgreSQL binaries (POSTGRES_BIN, default /usr/lib/postgresql/15/bin) in temporary directories, on
 * free loopback ports, with trust authentication for user `postgres`.
 *
 * initdb refuses to run as root, so under root every binary runs as the `postgres` user
 * (`runuser -u postgres --`) in directories it owns. `destroy()` stops every server (immediate
 * mode) and removes the directories. So that a failed or aborted test leaves nothing running, the
 * cluster config (vitest.config.ts) also destroys every node after each file (setup.ts), and stops
 * the servers of test processes that were killed before and after the run (global-setup.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { makeTempDir, processRuns, removeTempDir } from '../helpers/temp-dirs.js';

const run = promisify(execFile);
const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** the command line of a PostgreSQL binary, as the postgres user when this process is root */
function command(binary: string, args: string[]): [string, string[]] {
  const path = join(BIN, binary);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

async function runBinary(binary: string, args: string[]): Promise<void> {
  const [file, argv] = command(binary, args);
  try {
    await run(file, argv, { timeout: 60_000 });
  } catch (e) {
    const err = e as Error & { stderr?: string; signal?: string };
    const why = err.signal ? `killed by ${err.signal} after 60 s` : err.stderr || err.message;
    throw new Error(`${binary} ${args.join(' ')} failed: ${why}`);
  }
}

/** a loopback port nobody listens on now */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** data directories of servers this process started and has not stopped */
const running = new Set<string>();
/** nodes this process made and has not destroyed */
const live = new Set<PgNode>();

function stopNow(dataDir: string): void {
  const [file, argv] = command('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate']);
  try {
    execFileSync(file, argv, { stdio: 'ignore', timeout: 10_000 });
  } catch {
    // not running
  }
}

/** Destroys every node this process still has (setup.ts: after each test file, passed or failed). */
export async function destroyAllNodes(): Promise<void> {
  for (const node of [...live]) await node.destroy().catch(() => undefined);
}

/**
 * Stops the servers and removes the directories of nodes whose test process no longer runs (killed
 * before its afterAll): their directory names carry its pid (`inv-pg-<name>-p<pid>-`). Answers how
 * many directories it removed.
 */
export function stopLeftServers(): number {
  let removed = 0;
  for (const name of readdirSync(tmpdir())) {
    const m = /^inv-pg-[a-z]+-p(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (!m || processRuns(Number(m[1]))) continue;
    const dir = join(tmpdir(), name);
    if (existsSync(join(dir, 'data', 'postmaster.pid'))) stopNow(join(dir, 'data'));
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

export class PgNode {
  private constructor(
    readonly name: string,
    readonly port: number,
    /** this node's directory: data/, its log and its socket */
    readonly dir: string,
    private readonly settings: string[],
  ) {}

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** `postgres://postgres@127.0.0.1:PORT/DATABASE` */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** the server's log so far (for a failing test's message) */
  log(): string {
    const file = join(this.dir, 'server.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  static async create(name: string, settings: string[]): Promise<PgNode> {
    const dir = makeTempDir(`inv-pg-${name}-`);
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    const node = new PgNode(name, await freePort(), dir, settings);
    live.add(node);
    return node;
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${this.dir}'`,
      // the tests kill servers, not the machine: the operating system keeps what was written
      '-c fsync=off',
      ...this.settings.map((s) => `-c ${s}`),
    ].join(' ');
    running.add(this.dataDir);
    await runBinary('pg_ctl', [
      'start',
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
    ]);
  }

  /** `pg_ctl stop -m immediate`: every server process quits at once, as after kill -9 (no shutdown checkpoint) */
  async kill(): Promise<void> {
    await runBinary('pg_ctl', ['stop', '-D', this.dataDir, '-m', 'immediate']);
    running.delete(this.dataDir);
  }

  /** `pg_ctl promote`: a standby ends recovery and accepts writes; waits until it does */
  async promote(): Promise<void> {
    await runBinary('pg_ctl', ['promote', '-D', this.dataDir, '-w', '-t', '60']);
  }

  /** stops the server if it runs and removes its directory */
  async destroy(): Promise<void> {
    if (running.has(this.dataDir)) await this.kill().catch(() => running.delete(this.dataDir));
    removeTempDir(this.dir);
    live.delete(this);
  }

  async initdb(): Promise<void> {
    await runBinary('initdb', [
      '-D',
      this.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
  }

  /** a copy of `primary` streaming from it (pg_basebackup -R writes primary_conninfo and standby.signal) */
  async basebackupFrom(primary: PgNode): Promise<void> {
    await runBinary('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      this.dataDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
      // at once, not after a spread checkpoint (up to 4.5 min after the migrations' writes)
      '--checkpoint=fast',
      // the standby's name for synchronous_standby_names
      '-d',
      `application_name=${this.name}`,
    ]);
  }
}

/** one statement on a node's `postgres` database */
export async function query<R extends pg.QueryResultRow>(node: PgNode, text: string, database = 'postgres') {
  const client = new pg.Client({ connectionString: node.url(database) });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/** the primary's commits wait for the standby's flush; resolves once the standby streams as `sync` */
async function makeSynchronous(primary: PgNode, standbyName: string): Promise<void> {
  await query(primary, `alter system set synchronous_standby_names = '${standbyName}'`);
  await query(primary, 'select pg_reload_conf()');
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const rows = await query<{ sync_state: string }>(
      primary,
      `select sync_state from pg_stat_replication where application_name = '${standbyName}'`,
    );
    if (rows[0]?.sync_state === 'sync') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the standby did not become synchronous within 30 s:\n${primary.log()}`);
}

export interface ClusterOptions {
  /** the primary waits for the standby's flush before a commit returns (synchronous_standby_names) */
  synchronous?: boolean;
  /** the standby applies changes this late (recovery_min_apply_delay), e.g. '2s' */
  applyDelay?: string;
  /** runs on the primary before the standby is copied from it (a database, its schema) */
  prepare?(primary: PgNode): Promise<void>;
}

export interface Cluster {
  primary: PgNode;
  standby: PgNode;
  destroy(): Promise<void>;
}

/** A primary and one streaming standby, both running; `destroy()` always, in an afterAll. */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const nodes: PgNode[] = [];
  const destroy = async () => {
    for (const n of nodes) await n.destroy().catch(() => undefined);
  };
  try {
    const primary = await PgNode.create('primary', []);
    nodes.push(primary);
    await primary.initdb();
    await primary.start();
    await opts.prepare?.(primary);
    const standby = await PgNode.create(
      'standby',
      opts.applyDelay ? [`recovery_min_apply_delay='${opts.applyDelay}'`] : [],
    );
    nodes.push(standby);
    await standby.basebackupFrom(primary);
    await standby.start();
    // set once the copy is made (pg_basebackup copies postgresql.auto.conf): a promoted standby that
    // waited for a synchronous standby of its own would hang every commit
    if (opts.synchronous) await makeSynchronous(primary, standby.name);
    return { primary, standby, destroy };
  } catch (e) {
    await destroy();
    throw e;
  }
}
