/** Retries and TLS verification of webhook deliveries (their retention: outbox-partitions.test.ts). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { uniq, makeSite } from '../factories/index.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-dirs.js';

let t: TestApp;
let rx: Receiver;
let worker: EventWorker;
beforeAll(async () => {
  t = await makeTestApp({ WEBHOOK_RETRY_MAX: '2', WEBHOOK_RETRY_INTERVAL: '0.5', WEBHOOK_TIMEOUT: '2' });
  rx = await startReceiver();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
});
afterAll(async () => {
  await worker.stop();
  await rx.close();
  await t.close();
});
beforeEach(async () => {
  await sql`delete from extras_eventrule`.execute(t.db.kysely);
  rx.received.length = 0;
});

async function hook(webhook: Record<string, unknown>) {
  const w = (await t.post('/api/extras/webhooks/', { name: uniq('hook'), ...webhook })).json();
  await t.post('/api/extras/event-rules/', {
    name: uniq('rule'),
    content_types: ['dcim.site'],
    type_create: true,
    action_object_id: w.id,
  });
}

const latest = async () =>
  (
    await sql<{
      status: string;
      attempts: number;
      error: string | null;
    }>`select status, attempts, error from core_delivery order by id desc limit 1`.execute(t.db.kysely)
  ).rows[0]!;

async function settled() {
  for (let i = 0; i < 100; i++) {
    const d = await latest();
    if (d.status !== 'queued' && d.status !== 'running') return d;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('delivery did not settle');
}

describe('WEBHOOK_RETRY_MAX', () => {
  it('sends a failed delivery again after a growing wait, and stops after the last retry', async () => {
    await hook({ payload_url: `${rx.url}/x` });
    rx.answer = { status: 500, delayMs: 0, body: '' };
    await makeSite(t);
    // the moment each attempt arrives (waitFor resolves on arrival)
    const arrivals: number[] = [];
    for (let n = 1; n <= 3; n++) {
      await rx.waitFor(n);
      arrivals.push(performance.now());
    }
    const d = await settled();
    expect(d).toMatchObject({ status: 'failed', attempts: 3 });
    expect(rx.received).toHaveLength(3);
    // the waits double from WEBHOOK_RETRY_INTERVAL: 0.5 s, then 1 s. A retry never goes out before
    // its time, so these are lower bounds; a fixed wait would give a second gap near 0.5 s
    const [first, second] = [arrivals[1]! - arrivals[0]!, arrivals[2]! - arrivals[1]!];
    expect(first).toBeGreaterThanOrEqual(480);
    expect(second).toBeGreaterThanOrEqual(980);
    expect(second).toBeGreaterThan(first);
    // the same delivery every time: one webhook-id
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('succeeds on a retry when the receiver recovers', async () => {
    await hook({ payload_url: `${rx.url}/x` });
    rx.answer = { status: 502, delayMs: 0, body: '' };
    await makeSite(t);
    await rx.waitFor(1);
    rx.answer = { status: 200, delayMs: 0, body: '' };
    expect(await settled()).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});

describe('TLS', () => {
  let dir: string;
  let server: https.Server;
  let url: string;
  beforeAll(async () => {
    dir = makeTempDir('inv-tls-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    server = https.createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.writeHead(200).end('ok'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.close();
    removeTempDir(dir);
  });

  it('fails on a certificate it cannot verify, and passes with ssl_verification off or the CA file given', async () => {
    await hook({ payload_url: url });
    await makeSite(t);
    const failed = await settled();
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^TLS error/);
    await sql`delete from extras_eventrule`.execute(t.db.kysely);
    await hook({ payload_url: url, ssl_verification: false });
    await makeSite(t);
    expect((await settled()).status).toBe('succeeded');
    await sql`delete from extras_eventrule`.execute(t.db.kysely);
    await hook({ payload_url: url, ca_file_path: join(dir, 'cert.pem') });
    await makeSite(t);
    expect((await settled()).status).toBe('succeeded');
  });
});
