/**
 * Errors raised before a request reaches a route, answered in NetBox's body shape
 * (`{"detail": ...}`) with the headers every response carries (spec: Conventions 4, Versioning 1):
 *
 * - Node's HTTP parser refusing the bytes (malformed request line, a method it does not know,
 *   headers too large, a bad chunk, a request timeout): the server's `clientError` event, with no
 *   request object, so the response is written on the socket by hand. The parser cannot go on, so
 *   the answer says `Connection: close` and the connection closes gracefully: what the client
 *   still sends is read and dropped for a moment, so its kernel does not reset the connection
 *   before the client has read the answer.
 * - CONNECT, which Node hands to a `connect` listener or else drops without a word.
 * - `Expect:` values other than 100-continue, which Node answers with a bare 417.
 * - URLs Fastify's router refuses (bad percent-encoding, an over-long path segment):
 *   Fastify's `frameworkErrors`, which skips the hooks that add the headers.
 */
import { requestId } from './request-id.js';
import { METHODS, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commonHeaders } from './headers.js';
import { allowedMethods } from './not-found.js';

/** how long a closing connection goes on reading (and dropping) what the client still sends */
const LINGER_MS = 2_000;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

interface Answer {
  status: number;
  detail: string;
  headers?: Record<string, string>;
}

function rawResponse({ status, detail, headers = {} }: Answer): string {
  const body = JSON.stringify({ detail });
  const all: Record<string, string> = {
    ...commonHeaders(requestId()),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
    Connection: 'close',
  };
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

const answered = new WeakSet<Duplex>();

/**
 * Writes the answer, then closes the connection without resetting it. When the bad bytes came
 * after a good request on the same connection (pipelined), that request is answered first.
 */
function answerAndClose(socket: Duplex, answer: Answer): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  socket.on('error', () => undefined);
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
    // an earlier request, read whole, is being answered: the bad bytes came after it
    inFlight.once('finish', () => (socket.writable ? closeWith(socket, answer) : socket.destroy()));
    inFlight.once('close', () => !inFlight.writableFinished && socket.destroy());
    return;
  }
  // the request being read is the bad one (a broken body): its answer cannot have started, unless streamed
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  closeWith(socket, answer);
}

function closeWith(socket: Duplex, answer: Answer): void {
  socket.on('data', () => undefined);
  socket.resume();
  socket.end(rawResponse(answer));
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}

/** The method and path of the request line with a method Node does not know (the packet may hold earlier requests). */
function unknownMethodLine(raw: Buffer | undefined): { method: string; path: string } | null {
  for (const m of raw?.toString('latin1').matchAll(/^(\S+) (\S+) HTTP\/\d\.\d\r?$/gm) ?? []) {
    if (!METHODS.includes(m[1]!)) return { method: m[1]!, path: m[2]!.split('?')[0]! };
  }
  return null;
}

function parserAnswer(app: FastifyInstance, err: NodeJS.ErrnoException & { rawPacket?: Buffer }): Answer {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'Request header fields too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'Request timeout.' };
    case 'HPE_INVALID_METHOD': {
      // a method Node does not know at all: NetBox (DRF) answers 405 where the path exists
      const line = unknownMethodLine(err.rawPacket);
      if (!line || !TOKEN.test(line.method)) break;
      const allow = line.path.startsWith('/') ? allowedMethods(app, line.path) : null;
      if (!allow) return { status: 404, detail: 'Not found.' };
      return { status: 405, detail: `Method "${line.method}" not allowed.`, headers: { Allow: allow } };
    }
  }
  return { status: 400, detail: `Malformed HTTP request (${err.code ?? 'unreadable'}).` };
}

/** Fastify's clientErrorHandler option: `this` is the Fastify instance. */
export function onClientError(this: FastifyInstance, err: Error, socket: Socket): void {
  const e = err as NodeJS.ErrnoException & { rawPacket?: Buffer };
  // the peer is gone: there is no one to answer
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE' || socket.destroyed) return;
  this.log.debug({ code: e.code }, 'client error');
  answerAndClose(socket, parserAnswer(this, e));
}

/** Fastify's frameworkErrors option: errors of the router, before any hook ran. */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply
    .headers(commonHeaders(request.id))
    // a path segment too long to be an id is an object that does not exist
    .code(tooLong ? 404 : 400)
    .type('application/json; charset=utf-8')
    .send({ detail: tooLong ? 'Not found.' : `Malformed URL: ${error.message}` });
}

/** CONNECT and unknown expectations, which Node answers (or drops) without asking the app. */
export function registerConnectionErrors(server: Server): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    answerAndClose(socket, { status: 405, detail: 'Method "CONNECT" not allowed.' });
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ detail: `Expectation "${String(req.headers.expect)}" cannot be met.` });
    // the client may or may not send the body it announced: the connection cannot be reused
    res.writeHead(417, {
      ...commonHeaders(requestId()),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    });
    res.end(body);
  });
}
