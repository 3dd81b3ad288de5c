/**
 * The service as it runs (`node bin/inventory.js serve`: one esbuild bundle, bin/compile-cache.js)
 * keeps what db/pg-described-once.ts promises: a named statement's result is described once per
 * connection, so a request repeated on a warm connection sends PostgreSQL Bind and Execute, never
 * Describe. test/unit/pg-described-once.test.ts checks the patch itself on pg from node_modules;
 * this one checks it reaches the copy of pg inside the bundle (issue 15: a run-time require of
 * pg's files patched a second, unused copy, and every statement was described again).
 * The frontend messages are counted by a loopback proxy between the service and PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/server.js';
import { adminQuery, ENGINE, needsPostgresServer, pgUrl } from '../helpers/engine.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = randomBytes(20).toString('hex');
const server = await needsPostgresServer();

/** counts of the frontend messages (by type byte) that went through the proxy */
type Counts = Map<string, number>;

/**
 * A proxy that forwards bytes unchanged and reads the client's side as PostgreSQL frontend
 * messages: the startup message has no type byte, every later one is a type, a length, a body.
 */
function countingProxy(target: number, counts: Counts): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          if (pending.length < 4) break;
          const len = pending.readInt32BE(0);
          if (pending.length < len) break;
          pending = pending.subarray(len);
          started = true;
          continue;
        }
        if (pending.length < 5) break;
        const len = pending.readInt32BE(1);
        if (pending.length < 1 + len) break;
        const type = String.fromCharCode(pending[0]!);
        counts.set(type, (counts.get(type) ?? 0) + 1);
        pending = pending.subarray(1 + len);
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return new Promise((ok) => proxy.listen(0, '127.0.0.1', () => ok({ port: (proxy.address() as { port: number }).port, server: proxy, sockets })));
}

describe.runIf(server.available && ENGINE === 'postgres')(`the bundled service describes a named statement once per connection${server.reason}`, () => {
  const name = `inv_t_bundle_${randomBytes(4).toString('hex')}`;
  const counts: Counts = new Map();
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let child: ChildProcess;
  let url: string;
  let output = '';

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    proxy = await countingProxy(Number(new URL(pgUrl(name)).port || 5432), counts);
    const dbUrl = new URL(pgUrl(name));
    dbUrl.port = String(proxy.port);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['bin/inventory.js', 'serve'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl.toString(), HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ADMIN_USERNAME: 'bundle-admin', ADMIN_TOKEN: TOKEN, WORKERS: '1', RESPONSE_CACHE_MB: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    const until = Date.now() + 90_000;
    while (!output.includes('netinventory is ready')) {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > until) throw new Error(`serve did not start within 90 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    for (const s of proxy?.sockets ?? []) s.destroy();
    await new Promise((r) => proxy?.server.close(r));
    await adminQuery(`drop database if exists ${name} with (force)`);
  });

  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { Authorization: `Token ${TOKEN}`, Accept: 'application/json' } });
    expect(res.status).toBe(200);
    return res.json() as Promise<{ count: number }>;
  };

  it('sends Bind and Execute for a repeated page, and no Describe', async () => {
    const create = await fetch(`${url}/api/dcim/sites/`, {
      method: 'POST',
      headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ name: 'Bundle A', slug: 'bundle-a' }, { name: 'Bundle B', slug: 'bundle-b' }]),
    });
    expect(create.status).toBe(201);
    // one request at a time: the pool hands the same warm connection back each time
    for (let i = 0; i < 5; i++) await get('/api/dcim/sites/?limit=50');
    counts.clear();
    for (let i = 0; i < 20; i++) expect((await get('/api/dcim/sites/?limit=50')).count).toBe(2);
    // every page was read by a named statement (Bind), described before the counting began
    expect(counts.get('B') ?? 0).toBeGreaterThanOrEqual(20);
    expect(counts.get('D') ?? 0).toBe(0);
    expect(counts.get('P') ?? 0).toBe(0);
  });
});
