/**
 * A browser's sign-in through app.inject(): fetch /login/ for the csrftoken cookie, post the form,
 * keep the cookies. `request()` then sends them (and, for unsafe methods, X-CSRFToken) like a
 * page script would.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

export interface WebSession {
  cookies: Map<string, string>;
  /** the Cookie header for the cookies held */
  cookieHeader(): string;
  csrf(): string;
  request(
    method: string,
    url: string,
    opts?: { body?: unknown; form?: Record<string, string>; headers?: Record<string, string>; csrf?: boolean },
  ): Promise<LightMyRequestResponse>;
}

/** Keeps the cookies a response sets (a Max-Age=0 cookie is removed). */
function absorbCookies(jar: Map<string, string>, res: LightMyRequestResponse): void {
  const raw = res.headers['set-cookie'];
  for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = decodeURIComponent(pair!.slice(eq + 1).trim());
    if (/max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** An anonymous browser: no cookies until a response sets them. */
export function newBrowser(t: TestApp): WebSession {
  const cookies = new Map<string, string>();
  const session: WebSession = {
    cookies,
    cookieHeader: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    csrf: () => cookies.get('csrftoken') ?? '',
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = {
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        ...(opts.headers ?? {}),
      };
      if (cookies.size) headers.cookie = session.cookieHeader();
      let payload: string | undefined;
      if (opts.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = formBody(opts.form);
      } else if (opts.body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(opts.body);
      }
      if (opts.csrf !== false && !['GET', 'HEAD', 'OPTIONS'].includes(method) && !opts.form && session.csrf())
        headers['x-csrftoken'] ??= session.csrf();
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      });
      absorbCookies(cookies, res);
      return res;
    },
  };
  return session;
}

/** Signs in through the login form; throws unless the answer is the 302 with a session cookie. */
export async function signIn(t: TestApp, username: string, password: string): Promise<WebSession> {
  const browser = newBrowser(t);
  await browser.request('GET', '/login/');
  const res = await browser.request('POST', '/login/', {
    form: { username, password, csrfmiddlewaretoken: browser.csrf(), next: '/' },
  });
  if (res.statusCode !== 302 || !browser.cookies.has('sessionid')) throw new Error(`sign-in failed: ${res.statusCode}`);
  return browser;
}
