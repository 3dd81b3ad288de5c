/**
 * The NetBox being copied, through its REST API only: which release it runs (and so which API
 * dialect its objects come in), and every object of a list, page by page. A source that fails
 * mid-way is asked again a few times; one that keeps failing stops the copy with what it said.
 */
import type { Dialect } from '../core/model/dialect.js';

export class ImportError extends Error {}

/** one representation as the source renders it */
export type Rep = Record<string, unknown>;

export interface SourceOptions {
  url: string;
  token: string;
  /** per request; a source that takes longer is asked again */
  timeoutMs?: number;
  /** how many times a failed request is tried again (5xx, time-out, refused connection) */
  retries?: number;
  /** objects per page; NetBox's MAX_PAGE_SIZE is 1,000 by default */
  pageSize?: number;
}

export interface SourceInfo {
  /** `netbox-version` of /api/status/ */
  version: string;
  dialect: Dialect;
}

const VERSION_44 = 'application/json; version=4.4';

export class Source {
  readonly base: URL;
  private accept = 'application/json';
  private readonly timeoutMs: number;
  private readonly retries: number;
  readonly pageSize: number;
  /** requests sent and time spent waiting for answers (the report's "where the time goes") */
  readonly stats = { requests: 0, waitMs: 0 };

  constructor(private readonly opts: SourceOptions) {
    try {
      this.base = new URL(opts.url.endsWith('/') ? opts.url : `${opts.url}/`);
    } catch {
      throw new ImportError(`--url ${opts.url} is not a URL (for example https://netbox.example.com)`);
    }
    if (!/^https?:$/.test(this.base.protocol))
      throw new ImportError(`--url ${opts.url}: only http and https are spoken`);
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.retries = opts.retries ?? 3;
    this.pageSize = opts.pageSize ?? 1000;
  }

  /**
   * The source's release. A NetBox 4 (or this service, which speaks both) answers in 4.4's dialect:
   * the Accept header asks for it, and a NetBox 4 of another minor refuses that (406) and is asked
   * plainly. NetBox 3 answers in 3.4's.
   */
  async detect(): Promise<SourceInfo> {
    let res = await this.request('api/status/', VERSION_44, true);
    if (res.status === 406) res = await this.request('api/status/', 'application/json', true);
    else if (res.status === 200) this.accept = VERSION_44;
    const body = await this.json(res, 'api/status/');
    const version = String((body as Rep)['netbox-version'] ?? '');
    const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
    if (major === 3) {
      this.accept = 'application/json';
      return { version, dialect: '3.4' };
    }
    if (major === 4) return { version, dialect: '4.4' };
    throw new ImportError(
      `${this.base.href} is not a NetBox 3.x or 4.x: /api/status/ says netbox-version "${version || 'none'}"`,
    );
  }

  /** the number of objects a list holds, or null when the source has no such list (404) */
  async count(path: string): Promise<number | null> {
    const res = await this.request(`${path}?limit=1&brief=1`, this.accept, true);
    if (res.status === 404) return null;
    return Number(((await this.json(res, path)) as Rep).count ?? 0);
  }

  /**
   * Every object of a list, in id order, a page at a time (offset paging: NetBox 3 has no other).
   * Objects added meanwhile may be missed and those deleted may shift a page; the check at the
   * end reads both sides again and shows any such difference.
   */
  async *pages(path: string, extra = ''): AsyncGenerator<Rep[]> {
    const seen = new Set<number>();
    const page = async (offset: number) => {
      const res = await this.request(
        `${path}?limit=${this.pageSize}&offset=${offset}&ordering=id${extra}`,
        this.accept,
        false,
      );
      const body = (await this.json(res, path)) as { results?: Rep[]; next?: unknown };
      if (!Array.isArray(body.results))
        throw new ImportError(`${this.base.href}${path} answered without a list of results`);
      return body as { results: Rep[]; next?: unknown };
    };
    // the next page is asked for while the caller handles this one (the source renders as this side writes)
    let pending = page(0);
    for (let offset = 0; ; offset += this.pageSize) {
      const body = await pending;
      const more = !!body.next && body.results.length >= this.pageSize;
      if (more) {
        pending = page(offset + this.pageSize);
        // a caller that stops early leaves it unread
        pending.catch(() => undefined);
      }
      const fresh = body.results.filter((r) => !seen.has(Number(r.id)));
      for (const r of fresh) seen.add(Number(r.id));
      if (fresh.length) yield fresh;
      if (!more) return;
    }
  }

  async get(path: string): Promise<Rep | null> {
    const res = await this.request(path, this.accept, true);
    if (res.status === 404) return null;
    return (await this.json(res, path)) as Rep;
  }

  /**
   * A file the source serves (an image attachment's, under its MEDIA_URL), with the token: this
   * service and a NetBox whose media view accepts it serve it; else the status it answered
   */
  async download(href: string): Promise<Buffer | number> {
    const url = new URL(href, this.base);
    const started = performance.now();
    this.stats.requests++;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Token ${this.opts.token}` },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (res.status !== 200) return res.status;
      return Buffer.from(await res.arrayBuffer());
    } catch {
      return 0;
    } finally {
      this.stats.waitMs += performance.now() - started;
    }
  }

  private async json(res: Response, path: string): Promise<unknown> {
    const text = await res.text();
    if (res.status === 401 || res.status === 403)
      throw new ImportError(
        `the source refused the token (${res.status} on ${path}): ${brief(text)}; give a token of a user who may view everything (read-only is enough)`,
      );
    if (res.status !== 200) throw new ImportError(`the source answered ${res.status} on ${path}: ${brief(text)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new ImportError(`the source answered ${path} with something that is not JSON: ${brief(text)}`);
    }
  }

  /** one GET, tried again on what may pass (5xx, time-out, connection refused or reset); 404 passed through when asked */
  private async request(path: string, accept: string, allow404: boolean): Promise<Response> {
    const url = new URL(path, this.base);
    let last = '';
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(8000, 500 * 2 ** attempt)));
      const started = performance.now();
      this.stats.requests++;
      try {
        const res = await fetch(url, {
          headers: { authorization: `Token ${this.opts.token}`, accept },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (res.status >= 500) {
          last = `${res.status} ${brief(await res.text())}`;
          continue;
        }
        if (res.status === 404 && !allow404)
          throw new ImportError(`the source answered 404 on ${url.pathname}${url.search}`);
        return res;
      } catch (err) {
        if (err instanceof ImportError) throw err;
        // fetch's own message is "fetch failed"; its cause says why (ECONNREFUSED, a bad port)
        const e = err as Error & { cause?: { code?: string; message?: string } };
        last =
          e.name === 'TimeoutError'
            ? `no answer within ${this.timeoutMs / 1000} s`
            : (e.cause?.code ?? e.cause?.message ?? e.message);
      } finally {
        this.stats.waitMs += performance.now() - started;
      }
    }
    throw new ImportError(`the source at ${this.base.href} failed on ${url.pathname}${url.search}: ${last}`);
  }
}

function brief(text: string): string {
  return text.slice(0, 200).replace(/\s+/g, ' ').trim();
}
