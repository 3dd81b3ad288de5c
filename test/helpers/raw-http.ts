/**
 * A raw HTTP/1.1 client over one TCP connection (loopback only), for what app.inject() cannot
 * send: malformed request lines, unknown methods, oversized headers, pipelined requests. It reads
 * responses in order (Content-Length or chunked bodies) and tells whether the server closed the
 * connection cleanly or reset it.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  status: number;
  /** lower-case names */
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  /** writes the bytes; rejects when the connection is already closed or the write fails */
  send(bytes: string | Buffer): Promise<void>;
  /** the next complete response; rejects when the connection ends first */
  response(): Promise<RawResponse>;
  /** resolves once the connection is closed: reset = the peer reset it (ECONNRESET / EPIPE) */
  closed: Promise<{ reset: boolean }>;
  end(): void;
}

/** Listens on an ephemeral loopback port once per app; returns the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as net.AddressInfo).port;
}

/** Parses one response off the front of `buf`; null when it is not complete yet. */
function parseResponse(buf: Buffer): { response: RawResponse; rest: Buffer } | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = Number(statusLine!.split(' ')[1]);
  let at = headEnd + 4;
  let body: Buffer;
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
      if (buf.length < lineEnd + 2 + size + 2) return null;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    body = Buffer.concat(parts);
  } else {
    const length = Number(headers['content-length'] ?? 0);
    if (buf.length < at + length) return null;
    body = buf.subarray(at, at + length);
    at += length;
  }
  return { response: { status, headers, body: body.toString('utf8') }, rest: buf.subarray(at) };
}

export function connect(port: number): RawConnection {
  const socket = net.connect(port, '127.0.0.1');
  let buf: Buffer = Buffer.alloc(0);
  let ended = false;
  let reset = false;
  const waiting: Array<{ resolve: (r: RawResponse) => void; reject: (e: Error) => void }> = [];
  const ready: RawResponse[] = [];
  const drain = () => {
    for (;;) {
      const parsed = parseResponse(buf);
      if (!parsed) break;
      buf = parsed.rest;
      const w = waiting.shift();
      if (w) w.resolve(parsed.response);
      else ready.push(parsed.response);
    }
    if (ended)
      for (const w of waiting.splice(0))
        w.reject(new Error(`connection closed${reset ? ' by a reset' : ''} before a response`));
  };
  const closed = new Promise<{ reset: boolean }>((resolve) => {
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      drain();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNRESET' || e.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => {
      ended = true;
      drain();
      resolve({ reset });
    });
  });
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('close', () => reject(new Error('connection closed before it was established')));
  });
  connected.catch(() => undefined);
  return {
    async send(bytes) {
      await connected;
      // bytes that cannot go out are an error of the test, never a silent no-op
      if (socket.destroyed || !socket.writable) throw new Error('cannot send: the connection is already closed');
      await new Promise<void>((resolve, reject) => socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    },
    response() {
      const r = ready.shift();
      if (r) return Promise.resolve(r);
      if (ended) return Promise.reject(new Error('connection closed before a response'));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    closed,
    end: () => socket.end(),
  };
}
