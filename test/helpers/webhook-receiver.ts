/**
 * A real HTTP receiver on loopback for webhook tests: records every request (method, path, headers,
 * body) and answers as told (status, delay).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** how to answer the next requests (default 200 after no delay) */
  answer: { status: number; delayMs: number; body: string };
  /** resolves once `n` requests have arrived (or rejects after timeoutMs) */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const receiver = {} as Receiver;
  receiver.answer = { status: 200, delayMs: 0, body: 'Webhook received!' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const w of waiters.splice(0)) w();
      const { status, delayMs, body } = receiver.answer;
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    async waitFor(n: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} webhook requests, got ${received.length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return receiver;
}
