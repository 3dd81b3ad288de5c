/**
 * JSON bodies only (spec: Conventions 2). The bytes must be UTF-8 (invalid sequences are not
 * silently stored as U+FFFD); malformed JSON is a 400 `JSON parse error - ...`; values JSON.parse
 * would change or PostgreSQL could not store (json-checks.ts) are a 400 naming the field; an empty
 * body is "no data" (the routes decide whether that is acceptable); other media types are refused
 * by Fastify with 415, except the browser's forms (form-body.ts).
 */
import type { FastifyInstance } from 'fastify';
import { type ApiError, Errors } from '../core/errors.js';
import { findJsonProblem, formatJsonPath, jsonPathAt, type JsonPath, type JsonProblem } from './json-checks.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The length of the longest prefix of `bytes` that is valid UTF-8 (a sequence cut at its end counts as valid). */
function validUtf8Prefix(bytes: Buffer): number {
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

const INVALID_UTF8 = 'Invalid UTF-8: the body must be JSON encoded as UTF-8.';

/** The 400 for bytes that are not UTF-8, naming the value they sit in (the JSON before them says which). */
function invalidUtf8Error(bytes: Buffer): ApiError {
  const lenient = new TextDecoder('utf-8');
  const path = jsonPathAt(lenient.decode(bytes.subarray(0, validUtf8Prefix(bytes))));
  let body: unknown;
  try {
    // with the bad bytes replaced, the body usually parses: its shape aligns the answer
    body = JSON.parse(lenient.decode(bytes));
  } catch {
    return Errors.jsonParse(path.length ? `${INVALID_UTF8} (at ${formatJsonPath(path)})` : INVALID_UTF8);
  }
  return problemError(body, { path, message: INVALID_UTF8 });
}

/**
 * The 400 for a problem, in the shape of the field errors of the same body: `{field: [msg]}` for
 * an object, an array aligned with the input (`{}` for the other items) for a bulk list, and
 * `{"detail": ...}` where no field can be named.
 */
function problemError(body: unknown, problem: JsonProblem): ApiError {
  const { path, message } = problem;
  const fieldError = (rest: JsonPath) => {
    const [key, ...inner] = rest;
    if (typeof key !== 'string') return { non_field_errors: [message] };
    return { [key]: [inner.length ? `${message} (at ${formatJsonPath(rest)})` : message] };
  };
  if (Array.isArray(body) && typeof path[0] === 'number') {
    const at = path[0];
    return Errors.validation(body.map((_, i) => (i === at ? fieldError(path.slice(1)) : {})));
  }
  if (typeof path[0] === 'string') return Errors.validation(fieldError(path));
  return Errors.jsonParse(message);
}

/** A JSON body's bytes -> its value (undefined when empty), or the 400 that describes what is wrong. */
export function parseJsonBytes(raw: Buffer): { body: unknown } | { error: ApiError } {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { error: invalidUtf8Error(raw) };
  }
  if (text.trim() === '') return { body: undefined };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return { error: Errors.jsonParse((err as Error).message) };
  }
  const problem = findJsonProblem(text);
  if (problem) return { error: problemError(body, problem) };
  return { body };
}

export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(;.*)?$/i, { parseAs: 'buffer' }, (_req, raw, done) => {
    const parsed = parseJsonBytes(raw as Buffer);
    if ('error' in parsed) return done(parsed.error, undefined);
    done(null, parsed.body);
  });
}
