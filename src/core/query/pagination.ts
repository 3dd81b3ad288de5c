/**
 * limit/offset pagination (reference 5; spec: Limits). A missing limit means PAGINATE_COUNT; a
 * larger one is capped at MAX_PAGE_SIZE; limit=0 means "all" when there is no maximum and one
 * capped page otherwise. Links carry every parameter, sorted, with limit and offset replaced.
 */
import type { Config } from '../../config.js';
import { Errors } from '../errors.js';

export interface Page {
  /** null = no limit */
  limit: number | null;
  offset: number;
}

/**
 * A non-negative integer parameter (`limit`, `offset`), or undefined when absent or empty (as DRF
 * reads an empty one). NetBox 3.4 (DRF) answers a bad value with the default; here it is a
 * 400 naming the parameter, in django-filter's words, as for every bad parameter. Every value of a repeated parameter must be
 * valid; the first counts.
 */
export function countParam(params: Map<string, string[]>, name: string): number | undefined {
  let out: number | undefined;
  for (const raw of params.get(name) ?? []) {
    const s = raw.trim();
    if (s === '') continue;
    if (/^-\d+$/.test(s)) throw Errors.invalidParameter(name, 'Ensure this value is greater than or equal to 0.');
    if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)))
      throw Errors.invalidParameter(name, 'Enter a whole number.');
    out ??= Number(s);
  }
  return out;
}

export function parsePage(config: Config, params: Map<string, string[]>): Page {
  const n = countParam(params, 'limit');
  let limit: number | null = config.paginateCount;
  if (n === 0) limit = config.maxPageSize === 0 ? null : config.maxPageSize;
  else if (n !== undefined) limit = config.maxPageSize === 0 ? n : Math.min(n, config.maxPageSize);
  return { limit, offset: countParam(params, 'offset') ?? 0 };
}

function linkWith(listUrl: string, params: Map<string, string[]>, limit: number, offset: number | null): string {
  const entries: Array<[string, string]> = [];
  for (const [k, vs] of params) if (k !== 'limit' && k !== 'offset') for (const v of vs) entries.push([k, v]);
  entries.push(['limit', String(limit)]);
  if (offset !== null) entries.push(['offset', String(offset)]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${listUrl}?${new URLSearchParams(entries).toString()}`;
}

export function pageLinks(listUrl: string, params: Map<string, string[]>, page: Page, count: number) {
  if (page.limit === null) return { next: null, previous: null };
  const { limit, offset } = page;
  const next = offset + limit < count ? linkWith(listUrl, params, limit, offset + limit) : null;
  let previous: string | null = null;
  if (offset > 0) {
    const prev = Math.max(0, Math.min(offset, count) - limit);
    previous = linkWith(listUrl, params, limit, prev > 0 ? prev : null);
  }
  return { next, previous };
}
