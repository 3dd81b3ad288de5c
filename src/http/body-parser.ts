/**
 * JSON bodies only (spec: Conventions 2). Malformed JSON is a 400 `JSON parse error - ...`; an
 * empty body is "no data"; other media types are refused by Fastify with 415.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../core/errors.js';

export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(;.*)?$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(Errors.jsonParse((err as Error).message), undefined);
    }
  });
}
