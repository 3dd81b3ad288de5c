/**
 * Debian's PgBouncer (1.18) as a child process in transaction pooling, in front of the machine's
 * PostgreSQL (PG_ADMIN_URL's server), on a free loopback port; its files in a temporary directory
 * removed when it stops. PgBouncer refuses to run as root, so under root it drops to the `postgres`
 * user (its `-u` option) in a directory that user owns. Trust authentication: PgBouncer still wants
 * the user listed in its auth_file.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { PG_ADMIN_URL } from '../helpers/engine.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-dirs.js';

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export interface Bouncer {
  port: number;
  /** `postgres://postgres@127.0.0.1:PORT/DATABASE`: the database through PgBouncer */
  url(database: string): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `poolSize`: server connections per database and user, the bouncer's `default_pool_size` */
export async function startPgbouncer(poolSize: number): Promise<Bouncer> {
  const server = new URL(PG_ADMIN_URL);
  const dir = makeTempDir('inv-pgbouncer-');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), `"${server.username || 'postgres'}" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      // every database name a client asks for, on the machine's server
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 1000',
      // a test database dropped at its file's end leaves no pool behind for long
      'autodb_idle_timeout = 10',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    for (const f of [dir, ini, join(dir, 'users.txt')]) chownSync(f, uid, gid);
  }
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => void (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, child, () => `${stderr}${readLog(dir)}`);
  return {
    port,
    url: (database) => `postgres://${server.username || 'postgres'}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        const killed = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killed);
      }
      removeTempDir(dir);
    },
  };
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
  } catch {
    return '';
  }
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`pgbouncer did not listen on ${port} within 10 s: ${output()}`);
}
