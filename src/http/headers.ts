/**
 * Headers on every response, errors and redirects included (spec: Conventions 4, Versioning 1):
 * X-Request-ID (a UUID, also the change records' request_id), API-Version, NetBox's security
 * headers, CORS for the configured origins, and `Accept: application/json; indent=N` pretty printing.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { requestedDialect } from './dialect.js';

/** the API version announced where no dialect was chosen (errors answered before routing) */
export const API_VERSION = '3.4';

/** The headers every response carries, errors answered before routing included (client-errors.ts). */
export function commonHeaders(requestId: string): Record<string, string> {
  return {
    'X-Request-ID': requestId,
    'API-Version': API_VERSION,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'SAMEORIGIN',
  };
}

export function registerHeaders(app: FastifyInstance, config: Config): void {
  const allowAll = config.corsOrigins.includes('*');
  const origins = new Set(config.corsOrigins);
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(commonHeaders(request.id));
    reply.header('Vary', 'Accept, Origin');
    const origin = request.headers.origin;
    if (origin && (allowAll || origins.has(origin))) {
      reply.header('Access-Control-Allow-Origin', allowAll ? '*' : origin);
      reply.header('Access-Control-Expose-Headers', 'X-Request-ID, API-Version, Allow, Location');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        reply.header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
        reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Accept, X-Requested-With');
        reply.header('Access-Control-Max-Age', '86400');
        return reply.code(200).send();
      }
    }
    const accept = request.headers.accept;
    const indent = accept?.match(/application\/json[^,]*;\s*indent=(\d+)/);
    if (indent) {
      const n = Math.min(Number(indent[1]), 10);
      reply.serializer((payload) => JSON.stringify(payload, null, n));
      // a custom serializer leaves the type unset; routes that answer otherwise set their own
      reply.type('application/json; charset=utf-8');
    }
    // NetBox answers any version but its own 406; this service speaks each of its dialects
    // (http/dialect.ts, which announces the dialect the request is answered in)
    const asked = requestedDialect(accept);
    if (asked === 'unsupported') return reply.code(406).send({ detail: 'Invalid version in "Accept" header.' });
    reply.header('API-Version', asked ?? config.apiDialect);
  });
}
