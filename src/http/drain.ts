/**
 * A graceful stop (SIGTERM or SIGINT, cli.ts): once `app.close()` begins, Node's server accepts no
 * new connection and closes the idle ones, the requests already received run to the end with the
 * database still open, and every response from then on says `Connection: close`, so a keep-alive
 * connection ends with the request it carried instead of holding the drain open (Fastify keeps an
 * idle connection for 72 s). Fastify's own answer to requests during a close (a 503 in its shape,
 * without X-Request-ID) is turned off in app.ts: a request that got in is served.
 *
 * `app.close()` resolves once the connections have ended, and a client that hung up mid-request
 * ends its connection while the handler still runs: closing the database then failed that
 * handler's next statement ("driver has already been destroyed") and rolled its write back.
 * requestsSettled() waits for those handlers too. A request is done once its answer has been made
 * (`onSend`) and its response is over (the response's `close`: after the last byte, or when the
 * connection went), whichever comes last: for a client that hung up mid-request the close comes
 * first, and Fastify 5 still calls onSend when the handler returns (no onResponse, and no
 * onRequestAbort once the body was read).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

interface InFlight {
  n: number;
  waiters: Array<() => void>;
}

const inFlight = new WeakMap<FastifyInstance, InFlight>();
const SENT = 1;
const CLOSED = 2;

export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  const state: InFlight = { n: 0, waiters: [] };
  inFlight.set(app, state);
  // per request counted (it reached onRequest: an earlier hook may have answered it), which of the
  // two events that end it have come: its answer made (onSend), its response closed
  const seen = new WeakMap<FastifyRequest, number>();
  const arrived = (request: FastifyRequest, event: typeof SENT | typeof CLOSED) => {
    const so = seen.get(request);
    if (so === undefined) return;
    if ((so | event) !== (SENT | CLOSED)) return void seen.set(request, so | event);
    seen.delete(request);
    if (--state.n === 0) for (const wake of state.waiters.splice(0)) wake();
  };
  app.addHook('onRequest', async (request, reply) => {
    seen.set(request, 0);
    state.n++;
    reply.raw.once('close', () => arrived(request, CLOSED));
  });
  app.addHook('onSend', async (request, reply) => {
    if (draining) reply.header('Connection', 'close');
    arrived(request, SENT);
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
}

/** Resolves once every request received has been handled to the end (at once when none is in flight). */
export function requestsSettled(app: FastifyInstance): Promise<void> {
  const state = inFlight.get(app);
  if (!state || state.n === 0) return Promise.resolve();
  return new Promise((wake) => state.waiters.push(wake));
}
