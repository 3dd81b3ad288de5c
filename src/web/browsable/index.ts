/**
 * The browsable API (spec: Authentication 1; in the spirit of Django REST framework's): a browser that asks an
 * /api/ URL for HTML (http/negotiate.ts prefersHtml) gets the JSON answer of the same route,
 * whatever it is (a list, an object, a 404, a validation error), rendered into a page. The routes
 * are not touched: an onSend hook turns the response into the page at the very end, so it works
 * alike for handler results, bytes from the response cache (core/cache/cached-read.ts) and the
 * error handler's bodies, and the page always shows exactly what a JSON client would get.
 *
 * JSON clients pay two property checks per request: the onRequest hook looks at the Accept
 * header only when the URL is an API one, and the onSend hook at one request flag.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { prefersHtml } from '../../http/negotiate.js';
import { PAGE_CSP } from '../layout.js';
import { localPath } from '../page-context.js';
import { renderBrowsablePage } from './browsable-page.js';
import { locate } from './api-location.js';
import { tidyQuery, splitUrl } from './query-string.js';
import { APPS } from '../../http/root.routes.js';
import { isPlainObject } from '../../core/crud/parse-field.js';
import type { Html } from '../html.js';
import { customLinksHtml } from './custom-links.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** answered with a browsable API page instead of JSON */
    apiPage: boolean;
  }
}

/** API paths that are pages or documents of their own (Swagger UI, the OpenAPI document) */
const NOT_BROWSABLE = /^\/api\/(schema|docs)\//;

function wantsPage(request: FastifyRequest): boolean {
  const url = request.url;
  if (!url.startsWith('/api/')) return false;
  // cheap exits first: most API requests name neither HTML nor a format
  const accept = request.headers.accept;
  if ((accept === undefined || !accept.includes('html')) && !url.includes('format=')) return false;
  return !NOT_BROWSABLE.test(url) && prefersHtml(request);
}

function parseBody(payload: unknown): { ok: true; body: unknown } | { ok: false } {
  if (payload === undefined || payload === null || payload === '') return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload)) };
  } catch {
    return { ok: false };
  }
}

/**
 * Post/redirect/get after a write from one of the page's forms that worked: a reload must not post
 * again. A created object's page is at its Location, a changed one's at its own URL, and after a
 * delete (204, no body) the list.
 */
function redirectAfterWrite(request: FastifyRequest, reply: FastifyReply): string | null {
  if (request.formFields === null || reply.statusCode < 200 || reply.statusCode >= 300) return null;
  const { path } = splitUrl(request.url);
  const location = reply.getHeader('location');
  if (reply.statusCode === 201 && typeof location === 'string') return localPath(location, request.rc.baseUrl);
  if (reply.statusCode === 204) return path.replace(/[^/]+\/$/, '');
  const loc = locate(request.server.inventory.registry, path, APPS);
  if (loc.kind === 'detail' && reply.statusCode === 200) return path;
  return null;
}

/** An object's detail page read with GET: its custom links (custom-links.ts), else nothing. */
async function linksOf(request: FastifyRequest, status: number, body: unknown): Promise<Html | ''> {
  if (status !== 200 || request.method !== 'GET' || !isPlainObject(body)) return '';
  const loc = locate(request.server.inventory.registry, splitUrl(request.url).path, APPS);
  return loc.kind === 'detail' ? customLinksHtml(request.rc, loc.model, body) : '';
}

async function toPage(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const status = reply.statusCode;
  if (status >= 300 && status < 400) return payload;
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && !type.includes('json')) return payload;
  const to = redirectAfterWrite(request, reply);
  if (to) {
    reply.code(303).header('location', to).removeHeader('content-type');
    return '';
  }
  const parsed = parseBody(payload);
  if (!parsed.ok) return payload;
  const headers = Object.fromEntries(
    ['allow', 'content-type', 'location', 'vary'].map((h) => [h, reply.getHeader(h)?.toString()]),
  );
  const customLinks = await linksOf(request, status, parsed.body);
  const page = renderBrowsablePage(request, reply, request.server.inventory.registry, {
    status,
    headers,
    body: parsed.body,
    customLinks,
  });
  reply.removeHeader('content-length');
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store');
  return page;
}

export function registerBrowsableApi(app: FastifyInstance): void {
  app.decorateRequest('apiPage', false);
  app.addHook('onRequest', (request, reply, done) => {
    if (!wantsPage(request)) return done();
    request.apiPage = true;
    if (request.method === 'GET' || request.method === 'HEAD') {
      // a filter form submitted without JavaScript: to the URL the API understands (query-string.ts)
      const tidy = tidyQuery(request.url);
      if (tidy !== null) return void reply.redirect(tidy, 302);
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.apiPage) return done(null, payload);
    toPage(request, reply, payload).then(
      (out) => done(null, out),
      (err: unknown) => {
        // a page that cannot be made must not cost the answer: the JSON goes out as it was
        request.log.error({ err }, 'browsable API page failed');
        done(null, payload);
      },
    );
  });
}
