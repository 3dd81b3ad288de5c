/**
 * The browser's side of the UI benchmark (ui.ts): signing in through the `/login/` form as a
 * browser does (test/helpers/web-session.ts does the same through app.inject), fetching one page
 * with the session cookie to weigh it (bytes of HTML, and gzipped with node:zlib, since the
 * service itself does not compress), and the stylesheets and scripts a first visit loads, with
 * their Cache-Control.
 */
import { gzipSync } from 'node:zlib';

/** Cookies a response sets, kept as a browser keeps them (a Max-Age=0 cookie is removed). */
function absorbCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    if (/max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair!.slice(eq + 1).trim());
  }
}

/**
 * Signs in through the form: GET /login/ for the `csrftoken` cookie and the hidden
 * `csrfmiddlewaretoken`, POST the form with the cookie; the answer must be a 302 that sets
 * `sessionid`. Returns the Cookie header a signed-in browser then sends.
 */
export async function signIn(base: string, username: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const form = await fetch(`${base}/login/`, { redirect: 'manual' });
  absorbCookies(jar, form);
  const text = await form.text();
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(text)?.[1];
  if (form.status !== 200 || !token || !jar.has('csrftoken'))
    throw new Error(`GET /login/ answered ${form.status} without a csrftoken cookie or csrfmiddlewaretoken field`);
  const res = await fetch(`${base}/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie(), Origin: base },
    body: new URLSearchParams({ username, password, csrfmiddlewaretoken: token, next: '/' }).toString(),
  });
  absorbCookies(jar, res);
  const body = await res.text();
  if (res.status !== 302 || !jar.has('sessionid'))
    throw new Error(`POST /login/ answered ${res.status} without a sessionid cookie: ${body.slice(0, 300)}`);
  return cookie();
}

export interface Weighed {
  path: string;
  status: number;
  contentType: string;
  /** what the service sent as Content-Encoding (none: it leaves compression to a proxy) */
  contentEncoding: string | null;
  cacheControl: string | null;
  bytes: number;
  /** the same bytes through gzip at zlib's default level, as a proxy would send them */
  gzipBytes: number;
  text: string;
}

/** One GET with the session cookie; fails on anything but a 200. */
export async function weigh(base: string, path: string, cookie: string, accept = 'text/html'): Promise<Weighed> {
  const res = await fetch(`${base}${path}`, {
    redirect: 'manual',
    headers: { Cookie: cookie, Accept: accept, 'Accept-Encoding': 'gzip, br' },
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.toString().slice(0, 300)}`);
  return {
    path,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    contentEncoding: res.headers.get('content-encoding'),
    cacheControl: res.headers.get('cache-control'),
    bytes: body.length,
    gzipBytes: gzipSync(body).length,
    text: body.toString('utf8'),
  };
}

/** the stylesheets (`<link rel="stylesheet" href>`) and scripts (`<script src>`) a page loads */
export function assetUrls(page: string): string[] {
  const urls = new Set<string>();
  for (const tag of page.match(/<link\b[^>]*>/g) ?? []) {
    if (!/\brel="stylesheet"/.test(tag)) continue;
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href) urls.add(href.replace(/&amp;/g, '&'));
  }
  for (const tag of page.match(/<script\b[^>]*>/g) ?? []) {
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    if (src) urls.add(src.replace(/&amp;/g, '&'));
  }
  return [...urls];
}

export interface AssetWeight {
  url: string;
  bytes: number;
  gzipBytes: number;
  cacheControl: string | null;
  immutable: boolean;
}

/** Fetches each asset of a first visit (any page's, they share one shell). */
export async function weighAssets(base: string, page: string, cookie: string): Promise<AssetWeight[]> {
  const out: AssetWeight[] = [];
  for (const url of assetUrls(page)) {
    if (/^[a-z]+:\/\//i.test(url) && !url.startsWith(base)) throw new Error(`a page loads ${url} from elsewhere`);
    const w = await weigh(base, url.startsWith(base) ? url.slice(base.length) : url, cookie, '*/*');
    out.push({
      url,
      bytes: w.bytes,
      gzipBytes: w.gzipBytes,
      cacheControl: w.cacheControl,
      immutable: /\bimmutable\b/.test(w.cacheControl ?? '') && /max-age=\d{7,}/.test(w.cacheControl ?? ''),
    });
  }
  return out;
}
