/**
 * What the address-space tabs (child prefixes, IP addresses, VLANs) share: reading `page`,
 * `per_page` and `show_available` from the URL without ever failing on them (junk reads as the
 * default, with a note for `show_available`), the tab's head and the link that shows or hides the
 * available rows (NetBox's `show_available`, default true), and the pager.
 */
import { pager } from '../components/pager.js';
import { html, type Html, type HtmlValue } from '../html.js';
import { perPageOf } from '../model-pages/list.page.js';
import { hrefOf, type Query } from '../model-pages/page-shell.js';

/** the highest page number read (further pages show the last one) */
const MAX_PAGE = 1_000_000;

export interface Paging {
  perPage: number;
  pageNo: number;
  offset: number;
}

export function pagingOf(query: Query, pageNo?: number): Paging {
  const perPage = perPageOf(query);
  const asked = Math.floor(Number(query.get('page')?.[0]));
  const n = pageNo ?? (Number.isFinite(asked) && asked >= 1 ? Math.min(asked, MAX_PAGE) : 1);
  return { perPage, pageNo: n, offset: (n - 1) * perPage };
}

/** the last page of `total` rows, for a page number past it */
export const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

const YES = new Set(['', 'true', '1', 'yes', 'on', 'True']);
const NO = new Set(['false', '0', 'no', 'off', 'False']);

export interface ShowAvailable {
  show: boolean;
  /** what was wrong with the value given, shown above the table */
  notice: string | null;
}

export function showAvailableOf(query: Query): ShowAvailable {
  const v = query.get('show_available')?.[0];
  if (v === undefined || YES.has(v)) return { show: true, notice: null };
  if (NO.has(v)) return { show: false, notice: null };
  return {
    show: true,
    notice: `show_available must be true or false, not "${v.slice(0, 40)}"; available rows are shown.`,
  };
}

/** a link to this tab with some parameters changed */
function tabHref(path: string, query: Query, extra: Record<string, string>): string {
  const q = new Map(query);
  for (const [k, v] of Object.entries(extra)) q.set(k, [v]);
  return hrefOf(path, q);
}

export function availableToggle(path: string, query: Query, s: ShowAvailable): Html {
  return s.show
    ? html`<a href="${tabHref(path, query, { show_available: 'false', page: '1' })}">Hide available</a>`
    : html`<a href="${tabHref(path, query, { show_available: 'true', page: '1' })}">Show available</a>`;
}

export function spaceHead(title: string, total: number, actions: HtmlValue): Html {
  return html`<div class="tab-head">
  <h2>${title} <span class="count">${total.toLocaleString('en')}</span></h2>
  ${actions ? html`<div class="actions">${actions}</div>` : ''}
</div>`;
}

export function spacePager(path: string, query: Query, total: number, p: Paging): Html {
  return pager(total, p.pageNo, p.perPage, (extra) => tabHref(path, query, extra));
}

export function noticeOf(s: ShowAvailable): Html | '' {
  return s.notice ? html`<div class="alert warning" role="status">${s.notice}</div>` : '';
}
