/**
 * Unrouted paths: an API path without its trailing slash answers 302 to the slashed path with the
 * query string kept (spec: Conventions 1; NetBox answers 301); anything else is a JSON 404.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../core/errors.js';

export function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler(async (request, reply) => {
    const q = request.url.indexOf('?');
    const path = q < 0 ? request.url : request.url.slice(0, q);
    if (path.startsWith('/api') && !path.endsWith('/')) {
      return reply.code(302).header('Location', `${path}/${q < 0 ? '' : request.url.slice(q)}`).send();
    }
    throw Errors.notFound();
  });
}
