import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseCookies, serializeCookie } from '../../src/http/cookies.js';
import { maskSecret } from '../../src/http/csrf.js';
import { prefersHtml } from '../../src/http/negotiate.js';

const req = (accept: string | undefined, query: Record<string, string> = {}) =>
  ({ headers: accept === undefined ? {} : { accept }, query }) as unknown as FastifyRequest;

describe('prefersHtml', () => {
  it('gives browsers the page', () => {
    expect(prefersHtml(req('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'))).toBe(true);
    expect(prefersHtml(req('text/html'))).toBe(true);
  });

  it('gives API clients JSON', () => {
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'application/json; indent=4',
      'text/*',
      'application/json, text/html;q=0.5',
    ]) {
      expect(prefersHtml(req(accept)), String(accept)).toBe(false);
    }
  });

  it('lets ?format override the header, as DRF does', () => {
    expect(prefersHtml(req('text/html', { format: 'json' }))).toBe(false);
    expect(prefersHtml(req('application/json', { format: 'api' }))).toBe(true);
  });
});

describe('cookies', () => {
  it('parses a Cookie header, first value of a name winning, bad escapes kept as they are', () => {
    const jar = parseCookies('a=1; b="two"; a=3; c=%zz; bare; d=x%20y');
    expect([...jar]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['c', '%zz'],
      ['d', 'x y'],
    ]);
  });

  it('writes attributes, and an expired cookie for deletion', () => {
    expect(serializeCookie('s', 'v w', { maxAge: 10, httpOnly: true, secure: true })).toBe(
      's=v%20w; Path=/; Max-Age=10; HttpOnly; Secure; SameSite=Lax',
    );
    expect(serializeCookie('s', '', { maxAge: 0 })).toBe(
      's=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    );
  });
});

describe('maskSecret', () => {
  it('gives a different 64-character token each time for the same secret', () => {
    const secret = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const a = maskSecret(secret);
    const b = maskSecret(secret);
    expect(a).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(a).not.toBe(b);
  });
});
