/**
 * Who is asking, for every routed request: the per-request context (`request.rc`) with the user
 * from an API token (http/auth.ts) or, without an Authorization header, from a browser session
 * cookie (http/sessions.ts); then the checks that apply before any handler runs: CSRF for
 * session-authenticated and form-posted unsafe requests, LOGIN_REQUIRED (an anonymous browser is
 * sent to the sign-in page, an API client gets NetBox's 403), maintenance mode and read-only tokens.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../core/context.js';
import { Errors } from '../core/errors.js';
import { authenticate, clientIpOf, type TokenCache } from './auth.js';
import { checkCsrf, isUnsafeMethod } from './csrf.js';
import { isFormPost } from './form-body.js';
import { prefersHtml } from './negotiate.js';
import { dialectOf } from './dialect.js';
import { sessionKeyOf, sessionUser } from './sessions.js';
import { lookupOnPrimaryOrReplica, registerReadRouting, routeRead } from './read-routing.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a POST that only reads (GraphQL queries): read-only tokens and maintenance mode allow it */
    readsOnly?: boolean;
  }
}

/** scheme://host as the client addressed us (behind a trusted proxy: as the proxy says) */
function originOf(request: FastifyRequest, fallbackHost: string): string {
  const proto = (request.headers['x-forwarded-proto'] as string | undefined)?.split(',')[0]?.trim() || request.protocol;
  const host =
    (request.headers['x-forwarded-host'] as string | undefined)?.split(',')[0]?.trim() || request.host || fallbackHost;
  return `${proto}://${host}`;
}

/** `/login/?next=<path and query>`, where a page that needs a signed-in user sends a browser */
export function signInUrl(next: string): string {
  return `/login/?next=${encodeURIComponent(next)}`;
}

export function registerRequestContext(app: FastifyInstance, ctx: AppContext, tokenCache: TokenCache): void {
  const { config } = ctx;
  registerReadRouting(app, ctx, WRITE_METHODS);
  app.addHook('preHandler', async (request, reply) => {
    const clientIp = clientIpOf(request, config.trustedProxies);
    const origin = originOf(request, `${config.host}:${config.port}`);
    const routeConfig = request.routeOptions.config ?? {};
    const auth = routeConfig.noAuth
      ? { user: null, token: null }
      : await authenticate(ctx, request, clientIp, tokenCache);
    let viaSession = false;
    if (!routeConfig.noAuth && !request.headers.authorization) {
      const key = sessionKeyOf(request);
      const user = key ? await lookupOnPrimaryOrReplica(ctx, (q) => sessionUser(q, key)) : null;
      if (user) {
        auth.user = user;
        viaSession = true;
      }
    }
    // a read outside a transaction may go to a replica (db/replicas/README.md)
    const replica = await routeRead(ctx, request, auth.user);
    request.rc = {
      app: ctx,
      q: replica?.q ?? ctx.db.kysely,
      user: auth.user,
      token: auth.token,
      viaSession,
      requestId: request.id,
      baseUrl: config.baseUrl ?? origin,
      dialect: dialectOf(request, auth.token, config),
      permissions: null,
      clientIp,
      // a replica read's version is the replica's own snapshot, so no cache stores its answer under
      // a newer version (core/cache/README.md)
      dataVersion: replica?.dataVersion ?? null,
      // a multipart write's files (multipart-body.ts)
      ...(request.uploadedFiles ? { files: request.uploadedFiles } : {}),
    };
    // a token's own dialect is known only now: announce it (http/headers.ts wrote the others)
    if (auth.token?.api_dialect) reply.header('API-Version', request.rc.dialect);
    // a browser's unsafe request: with a session, or from one of our forms (sign-in included)
    if (isUnsafeMethod(request.method) && (viaSession || isFormPost(request))) {
      checkCsrf(request, config.baseUrl ?? origin, config.csrfTrustedOrigins);
    }
    if (config.loginRequired && !auth.user && !routeConfig.public) {
      if (request.method === 'GET' && prefersHtml(request)) return reply.redirect(signInUrl(request.url), 302);
      throw Errors.notAuthenticated();
    }
    if (WRITE_METHODS.has(request.method) && !routeConfig.readsOnly) {
      if (config.maintenanceMode) throw Errors.maintenance();
      // spec: Authentication 6 - a read-only token only reads
      if (auth.token && !auth.token.write_enabled) throw Errors.permissionDenied();
    }
    // a form's `_content` that is no JSON body, once it is known who posted it (form-body.ts)
    if (request.formBodyError) throw request.formBodyError;
  });
}
