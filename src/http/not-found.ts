/**
 * Unrouted requests. An API path without its trailing slash answers 302 to the slashed path with
 * the query string kept (spec: Conventions 1; NetBox answers 301). A path that has routes, asked
 * with a method none of them takes (PROPFIND, TRACE, or POST on a read-only model), answers 405
 * with the methods it does take (NetBox: `Method "X" not allowed.`). Anything else is a JSON 404.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../core/errors.js';

/** the methods a route may take, in the order an Allow header lists them */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** per app: the declared Allow of each route path without parameters */
const staticAllow = new WeakMap<FastifyInstance, Map<string, string>>();

/**
 * The Allow header of a path: a fixed path's declared Allow (it may share its methods with a
 * parametric route it shadows: `tokens/provision/` and `tokens/:id/`), else the methods the
 * routes serving it are registered for (each registers exactly the methods it takes); null when
 * no route serves the path.
 */
export function allowedMethods(app: FastifyInstance, path: string): string | null {
  const declared = staticAllow.get(app)?.get(path);
  if (declared) return declared;
  const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
  return allowed.length ? allowed.join(', ') : null;
}

export function registerNotFound(app: FastifyInstance): void {
  const fixed = new Map<string, string>();
  staticAllow.set(app, fixed);
  app.addHook('onRoute', (route) => {
    const allow = route.config?.allow;
    if (allow && !route.url.includes(':')) fixed.set(route.url, allow);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const q = request.url.indexOf('?');
    const path = q < 0 ? request.url : request.url.slice(0, q);
    if (path.startsWith('/api') && !path.endsWith('/')) {
      return reply
        .code(302)
        .header('Location', `${path}/${q < 0 ? '' : request.url.slice(q)}`)
        .send();
    }
    const allow = allowedMethods(app, path);
    if (allow) {
      reply.header('Allow', allow);
      throw Errors.methodNotAllowed(request.method);
    }
    throw Errors.notFound();
  });
}
