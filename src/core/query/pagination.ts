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

/** the list's URL with its parameters, sorted, `limit` and `offset` replaced (`start` too, given one) */
function linkWith(
  listUrl: string,
  params: Map<string, string[]>,
  limit: number,
  offset: number | null,
  start?: number,
): string {
  const replaced = (k: string) => k === 'limit' || k === 'offset' || (start !== undefined && k === 'start');
  const entries: Array<[string, string]> = [];
  for (const [k, vs] of params) if (!replaced(k)) for (const v of vs) entries.push([k, v]);
  entries.push(['limit', String(limit)]);
  if (offset !== null) entries.push(['offset', String(offset)]);
  if (start !== undefined) entries.push(['start', String(start)]);
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

/**
 * NetBox 4.6's cursor paging (#21363, netbox/api/pagination.py): `?start=<id>` asks for the objects
 * whose id is `start` or more, in id order. The id to start from, or null when the request pages by
 * offset. `start` is a non-negative integer, and cannot come with `offset` or `ordering` (a cursor
 * page is ordered by id alone), each a 400 in NetBox's words, keyed by the parameter as every bad
 * parameter is here (NetBox answers those two with a bare list).
 */
export function parseCursor(params: Map<string, string[]>): number | null {
  const values = params.get('start');
  if (!values) return null;
  let start: number | undefined;
  for (const raw of values) {
    const s = raw.trim();
    if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)))
      throw Errors.invalidParameter('start', "Invalid 'start' parameter: must be a non-negative integer.");
    start ??= Number(s);
  }
  if (params.has('offset')) throw Errors.invalidParameter('offset', "'start' and 'offset' are mutually exclusive.");
  if (params.has('ordering'))
    throw Errors.invalidParameter(
      'ordering',
      'Ordering cannot be specified in conjunction with cursor-based pagination.',
    );
  return start!;
}

/**
 * A cursor page's links: forward only (no `previous`); `next` starts after the page's last id when
 * the page is full, with the same limit, as NetBox does (a full last page still has a `next`, whose
 * page is empty).
 */
export function cursorLinks(listUrl: string, params: Map<string, string[]>, limit: number | null, ids: number[]) {
  const full = limit !== null && ids.length === limit && limit > 0;
  return { next: full ? linkWith(listUrl, params, limit, null, ids[ids.length - 1]! + 1) : null, previous: null };
}
