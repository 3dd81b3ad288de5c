/**
 * Reading and writing cookies (RFC 6265) for the browser sign-in: small enough that a dependency
 * would be more code to trust than this.
 */

/** The request's cookies; for a repeated name the first wins, as browsers send the most specific first. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || out.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}

export interface CookieOptions {
  /** seconds; 0 deletes the cookie; undefined makes a browser-session cookie */
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Lax' | 'Strict';
  path?: string;
}

export function serializeCookie(name: string, value: string, opts: CookieOptions = {}): string {
  let out = `${name}=${encodeURIComponent(value)}; Path=${opts.path ?? '/'}`;
  if (opts.maxAge !== undefined) {
    out += `; Max-Age=${Math.floor(opts.maxAge)}`;
    if (opts.maxAge <= 0) out += '; Expires=Thu, 01 Jan 1970 00:00:00 GMT';
  }
  if (opts.httpOnly) out += '; HttpOnly';
  if (opts.secure) out += '; Secure';
  out += `; SameSite=${opts.sameSite ?? 'Lax'}`;
  return out;
}
