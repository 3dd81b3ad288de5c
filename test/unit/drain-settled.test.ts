/**
 * http/drain.ts requestsSettled: a stop closes the database only once every request received has
 * been handled to the end, including one whose client hung up mid-request - its connection ends,
 * so `app.close()` resolves, while its handler still runs (and would find the database closed).
 * Through a real socket: Fastify's hooks for a hung-up client are what this depends on.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerDrain, requestsSettled } from '../../src/http/drain.js';

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close().catch(() => undefined);
});

/** an app whose /slow answers once `release()` is called; `started` resolves when a handler runs */
async function slowApp() {
  const app = Fastify();
  apps.push(app);
  registerDrain(app);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  let finished = false;
  app.post('/slow', async () => {
    started();
    await gate;
    finished = true;
    return { ok: true };
  });
  app.get('/fast', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { app, port, release, running, isFinished: () => finished };
}

/** `length`: the Content-Length announced (the body's own unless given: a client that stops midway) */
function send(port: number, head: string, body = '', length = Buffer.byteLength(body)) {
  const sock = connect(port, '127.0.0.1');
  sock.on('error', () => undefined);
  sock.write(
    `${head}\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${body}`,
  );
  return sock;
}

const state = (p: Promise<unknown>) =>
  Promise.race([p.then(() => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 50))]);

describe('requests settled before a stop closes the database', () => {
  it('is at once with nothing in flight, answered requests included', async () => {
    const { app, port } = await slowApp();
    const sock = send(port, 'GET /fast HTTP/1.1');
    await once(sock, 'data');
    sock.destroy();
    await app.close();
    expect(await state(requestsSettled(app))).toBe('settled');
  });

  it('waits for the handler of a request whose client hung up, past app.close()', async () => {
    const { app, port, release, running, isFinished } = await slowApp();
    const sock = send(port, 'POST /slow HTTP/1.1', '{"a":1}');
    await running;
    sock.destroy();
    await app.close();
    const settled = requestsSettled(app);
    expect(await state(settled)).toBe('pending');
    release();
    await settled;
    expect(isFinished()).toBe(true);
  });

  it('waits for a request still being answered, and not for one whose client left before its body came', async () => {
    const { app, port, release, running } = await slowApp();
    const partial = send(port, 'POST /slow HTTP/1.1', '{"a":', 100);
    await new Promise((r) => setTimeout(r, 20));
    partial.destroy();
    const sock = send(port, 'POST /slow HTTP/1.1', '{"a":1}');
    await running;
    const closing = app.close();
    expect(await state(requestsSettled(app))).toBe('pending');
    release();
    await once(sock, 'data');
    await closing;
    expect(await state(requestsSettled(app))).toBe('settled');
  });
});
