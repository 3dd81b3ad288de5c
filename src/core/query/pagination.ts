/**
 * limit/offset pagination (reference 5; spec: Limits). A missing or bad limit means PAGINATE_COUNT;
 * a larger one is capped at MAX_PAGE_SIZE; limit=0 means "all" when there is no maximum and one
 * capped page otherwise. Links carry every parameter, sorted, with limit and offset replaced.
 */
import type { Config } from '../../config.js';

export interface Page {
  /** null = no limit */
  limit: number | null;
  offset: number;
}

export function parsePage(config: Config, params: Map<string, string[]>): Page {
  const rawLimit = params.get('limit')?.[0];
  const rawOffset = params.get('offset')?.[0];
  let limit: number | null = config.paginateCount;
  if (rawLimit !== undefined && /^\d+$/.test(rawLimit.trim())) {
    const n = Number(rawLimit);
    if (n === 0) limit = config.maxPageSize === 0 ? null : config.maxPageSize;
    else limit = config.maxPageSize === 0 ? n : Math.min(n, config.maxPageSize);
  }
  const offset = rawOffset !== undefined && /^\d+$/.test(rawOffset.trim()) ? Number(rawOffset) : 0;
  return { limit, offset };
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
