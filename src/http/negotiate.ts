/**
 * JSON or HTML for one request, as Django REST framework decides it (its renderers are JSON first,
 * then the browsable API): `?format=json` forces JSON and `?format=api` the page; otherwise the
 * page only when the Accept header ranks text/html above application/json. A browser asks for
 * `text/html,...,*\/*;q=0.8` and gets the page; curl (`*\/*`), pynetbox and every other API client
 * get JSON, exactly as before. acceptsGzip reads Accept-Encoding with the same q-value parsing.
 */
import type { FastifyRequest } from 'fastify';

interface MediaRange {
  type: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').map((part) => {
    const [type = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return { type: type.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0 };
  });
}

/** The quality the client gives `mediaType`: its exact range, else type/*, else *\/*. */
function qualityOf(ranges: MediaRange[], mediaType: string): number {
  const [major] = mediaType.split('/');
  let best = -1;
  let specificity = -1;
  for (const r of ranges) {
    const s = r.type === mediaType ? 2 : r.type === `${major}/*` ? 1 : r.type === '*/*' ? 0 : -1;
    if (s > specificity) {
      specificity = s;
      best = r.q;
    }
  }
  return specificity < 0 ? 0 : best;
}

const cache = new WeakMap<FastifyRequest, boolean>();

export function prefersHtml(request: FastifyRequest): boolean {
  const known = cache.get(request);
  if (known !== undefined) return known;
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  let answer: boolean;
  if (format === 'json') answer = false;
  else if (format === 'api') answer = true;
  else {
    const accept = request.headers.accept;
    if (!accept?.includes('html')) answer = false;
    else {
      const ranges = parseAccept(accept);
      const htmlQ = qualityOf(ranges, 'text/html');
      // only an explicit text/html counts: `*/*` alone means "anything", and JSON is the API's answer
      answer =
        htmlQ > 0 && ranges.some((r) => r.type === 'text/html') && htmlQ >= qualityOf(ranges, 'application/json');
    }
  }
  cache.set(request, answer);
  return answer;
}

/** gzip is an encoding the request takes (RFC 9110 12.5.3: listed, or `*`, with a q-value above 0) */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  const codings = parseAccept(Array.isArray(header) ? header.join(',') : header);
  const q = (name: string) => codings.find((c) => c.type === name)?.q;
  return (q('gzip') ?? q('x-gzip') ?? q('*') ?? 0) > 0;
}
