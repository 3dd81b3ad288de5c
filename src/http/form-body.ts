/**
 * Bodies of HTML forms (`application/x-www-form-urlencoded`), which only browsers send: the sign-in
 * and profile pages read their fields; the browsable API's forms carry a JSON document in
 * `_content` (Django REST framework's field name), which becomes the request body exactly as if it
 * had been sent as JSON, through the same checks. Every form post must pass the CSRF check
 * (request-context.ts), whoever is signed in. An API request with any other form body is still
 * refused with 415, as before.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiError, Errors } from '../core/errors.js';
import { parseJsonBytes } from './body-parser.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the fields of a posted HTML form, else null */
    formFields: Record<string, string> | null;
    /** every value of each field of a posted HTML form (multiple selects, checkboxes), else null */
    formValues: Map<string, string[]> | null;
    /**
     * why the form's `_content` cannot be the API request's body; raised by request-context.ts
     * after the user and the CSRF token are known, so the browsable API can show it on a page
     * with the form (the user's) and a forged post is refused as forged first
     */
    formBodyError: ApiError | null;
  }
}

const FORM_TYPE = /^application\/x-www-form-urlencoded(;.*)?$/i;
export const CONTENT_FIELD = '_content';

export function isFormPost(request: FastifyRequest): boolean {
  return request.formFields !== null;
}

function parseValues(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(text)) {
    const vs = out.get(k);
    if (vs) vs.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/** the first value of each field (a repeated field's others are in formValues) */
function firstValues(values: Map<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, vs] of values) out[k] = vs[0]!;
  return out;
}

export function registerFormParser(app: FastifyInstance): void {
  app.decorateRequest('formFields', null);
  app.decorateRequest('formBodyError', null);
  app.decorateRequest('formValues', null);
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'buffer' }, (request, raw, done) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw as Buffer);
    } catch {
      return done(Errors.badRequest('Invalid UTF-8 in the form.'), undefined);
    }
    const values = parseValues(text);
    const fields = firstValues(values);
    request.formFields = fields;
    request.formValues = values;
    if (!request.url.startsWith('/api/')) return done(null, fields);
    // the API takes JSON: a form is accepted only as the browsable API's envelope of a JSON body
    const content = fields[CONTENT_FIELD];
    if (content === undefined) return done(Errors.unsupportedMediaType('application/x-www-form-urlencoded'), undefined);
    const parsed = parseJsonBytes(Buffer.from(content, 'utf8'));
    if ('error' in parsed) {
      request.formBodyError = parsed.error;
      return done(null, undefined);
    }
    done(null, parsed.body);
  });
}
