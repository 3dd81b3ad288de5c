/**
 * A graceful stop (SIGTERM or SIGINT, cli.ts): once `app.close()` begins, Node's server accepts no
 * new connection and closes the idle ones, the requests already received run to the end with the
 * database still open, and every response from then on says `Connection: close`, so a keep-alive
 * connection ends with the request it carried instead of holding the drain open (Fastify keeps an
 * idle connection for 72 s). Fastify's own answer to requests during a close (a 503 in its shape,
 * without X-Request-ID) is turned off in app.ts: a request that got in is served.
 */
import type { FastifyInstance } from 'fastify';

export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('Connection', 'close');
  });
}
