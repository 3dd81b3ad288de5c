/**
 * Cross-site request forgery protection for requests a browser authenticates by its session cookie,
 * in Django's conventions so that scripts written against NetBox's sign-in keep working
 * (docs/api.md, "Authentication"): the secret sits in the `csrftoken` cookie (readable by page
 * scripts), a form sends it in `csrfmiddlewaretoken`, a script in the `X-CSRFToken` header.
 * Requests authenticated by an API token need none: a browser never adds that header by itself.
 *
 * A form carries the secret masked with a fresh random pad on every page (64 characters, Django's
 * format) so that a compressed page does not reveal it byte by byte (BREACH); the bare 32-character
 * secret, as a script copies it from the cookie, is accepted too.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../core/errors.js';
import { parseCookies, serializeCookie } from './cookies.js';

const CSRF_COOKIE = 'csrftoken';
const CSRF_FIELD = 'csrfmiddlewaretoken';
const CSRF_HEADER = 'x-csrftoken';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_LENGTH = 32;
// Django: CSRF_COOKIE_AGE, one year
const COOKIE_AGE = 31_449_600;
const SECRET_RE = new RegExp(`^[${ALPHABET}]{${SECRET_LENGTH}}$`);
const TOKEN_RE = new RegExp(`^[${ALPHABET}]{${SECRET_LENGTH * 2}}$`);

function randomChars(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** pad + (secret shifted by pad), character by character */
export function maskSecret(secret: string): string {
  const pad = randomChars(SECRET_LENGTH);
  let cipher = '';
  for (let i = 0; i < SECRET_LENGTH; i++) {
    cipher += ALPHABET[(ALPHABET.indexOf(secret[i]!) + ALPHABET.indexOf(pad[i]!)) % ALPHABET.length];
  }
  return pad + cipher;
}

function unmask(token: string): string {
  const pad = token.slice(0, SECRET_LENGTH);
  const cipher = token.slice(SECRET_LENGTH);
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) {
    secret += ALPHABET[(ALPHABET.indexOf(cipher[i]!) - ALPHABET.indexOf(pad[i]!) + ALPHABET.length) % ALPHABET.length];
  }
  return secret;
}

/** The secret a submitted token stands for, or null when it is not a token at all. */
function secretOf(token: string): string | null {
  if (SECRET_RE.test(token)) return token;
  if (TOKEN_RE.test(token)) return unmask(token);
  return null;
}

/** true when the request reached us over HTTPS (directly or through a trusted proxy: Fastify's trustProxy) */
export function isSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/**
 * The request's CSRF secret, set in a cookie when it has none yet (a page with a form calls
 * this); `rotate` replaces it, as sign-in does so that a secret planted before cannot be used after.
 */
export function csrfSecret(request: FastifyRequest, reply: FastifyReply, rotate = false): string {
  const existing = parseCookies(request.headers.cookie).get(CSRF_COOKIE);
  if (!rotate && existing && SECRET_RE.test(existing)) return existing;
  const secret = randomChars(SECRET_LENGTH);
  reply.header(
    'Set-Cookie',
    serializeCookie(CSRF_COOKIE, secret, { maxAge: COOKIE_AGE, secure: isSecure(request), sameSite: 'Lax' }),
  );
  return secret;
}

/** The value a form's hidden csrfmiddlewaretoken field carries. */
export function csrfFormToken(request: FastifyRequest, reply: FastifyReply): string {
  return maskSecret(csrfSecret(request, reply));
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method);
}

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * Throws the 403 DRF gives (`CSRF Failed: <reason>`) unless the request proves it comes from our
 * own pages. `selfOrigin` is scheme://host as the client addressed us; `trustedOrigins` are
 * further origins allowed to post (CSRF_TRUSTED_ORIGINS, NetBox's setting).
 */
export function checkCsrf(request: FastifyRequest, selfOrigin: string, trustedOrigins: readonly string[]): void {
  const origin = request.headers.origin;
  // Django 4: a present Origin header must be ours or trusted; a browser always sends it on a cross-site POST
  if (origin !== undefined && origin !== selfOrigin && !trustedOrigins.includes(origin)) {
    throw Errors.csrfFailed(`Origin checking failed - ${origin} does not match any trusted origins.`);
  }
  if (origin === undefined && isSecure(request)) {
    // over HTTPS, without Origin, the Referer must name us (a man in the middle could plant a cookie over plain HTTP)
    const referer = request.headers.referer;
    if (!referer) throw Errors.csrfFailed('Referer checking failed - no Referer.');
    const from = originOf(referer);
    if (from !== selfOrigin && !trustedOrigins.includes(from ?? '')) {
      throw Errors.csrfFailed(`Referer checking failed - ${referer} does not match any trusted origins.`);
    }
  }
  const cookie = parseCookies(request.headers.cookie).get(CSRF_COOKIE);
  if (!cookie || !SECRET_RE.test(cookie)) throw Errors.csrfFailed('CSRF cookie not set.');
  const header = request.headers[CSRF_HEADER];
  const submitted = typeof header === 'string' ? header : request.formFields?.[CSRF_FIELD];
  if (!submitted) throw Errors.csrfFailed('CSRF token missing.');
  const secret = secretOf(submitted.trim());
  if (!secret || !timingSafeEqual(Buffer.from(secret), Buffer.from(cookie)))
    throw Errors.csrfFailed('CSRF token incorrect.');
}
