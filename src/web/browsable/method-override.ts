/**
 * HTML forms can only GET and POST, so the browsable API's forms post to `<url>?_method=PUT`
 * (PATCH, DELETE), as Django REST framework's browsable API does with its `_method` field. The
 * override happens before routing (Fastify's `rewriteUrl` sees the raw request), so the request is
 * routed, authenticated, CSRF-checked and logged as the method it stands for.
 *
 * Only a form post to the API is overridden: a form body is what only a browser sends, and every
 * form post must pass the CSRF check (http/request-context.ts), so a page of another site cannot
 * turn a harmless-looking POST into a DELETE. A JSON POST with `?_method=` in its URL is left alone.
 */
import type { IncomingMessage } from 'node:http';

export const METHOD_PARAM = '_method';
const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const FORM_TYPE = /^application\/x-www-form-urlencoded(;|$)/i;

/**
 * Fastify's `rewriteUrl`: returns the URL to route, with `_method` taken out of the query string
 * when it overrides the method (the other parameters are kept byte for byte).
 */
export function overrideFormMethod(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (req.method !== 'POST' || !url.startsWith('/api/')) return url;
  const q = url.indexOf('?');
  if (q < 0 || !url.includes(`${METHOD_PARAM}=`, q)) return url;
  const type = req.headers['content-type'];
  if (!type || !FORM_TYPE.test(type)) return url;
  let method: string | null = null;
  const kept: string[] = [];
  for (const part of url.slice(q + 1).split('&')) {
    // the value is one plain word, compared undecoded (a malformed escape cannot throw here)
    if (part.startsWith(`${METHOD_PARAM}=`)) method ??= part.slice(METHOD_PARAM.length + 1).toUpperCase();
    else if (part !== '') kept.push(part);
  }
  if (method === null || !OVERRIDABLE.has(method)) return url;
  req.method = method;
  return kept.length ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}
