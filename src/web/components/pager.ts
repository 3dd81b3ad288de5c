/**
 * The pager under a list: where the page sits in the count, previous and next, and the page sizes
 * NetBox offers (25/50/100/250/500/1000). Links keep every other parameter of the URL.
 */
import { html, type Html } from '../html.js';

export const PAGE_SIZES = [25, 50, 100, 250, 500, 1000];

export function pager(
  count: number,
  page: number,
  perPage: number,
  href: (params: Record<string, string>) => string,
): Html {
  const pages = Math.max(1, Math.ceil(count / perPage));
  const first = count ? (page - 1) * perPage + 1 : 0;
  const last = Math.min(count, page * perPage);
  return html`<nav class="pager" aria-label="Pages">
  <span>${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${count.toLocaleString('en')}</span>
  ${page > 1 ? html`<a href="${href({ page: String(page - 1) })}" rel="prev">Previous</a>` : ''}
  ${pages > 1 ? html`<span>Page ${page} of ${pages.toLocaleString('en')}</span>` : ''}
  ${page < pages ? html`<a href="${href({ page: String(page + 1) })}" rel="next">Next</a>` : ''}
  <span class="per-page">Per page: ${PAGE_SIZES.map((n) =>
    n === perPage
      ? html`<strong aria-current="true">${n}</strong> `
      : html`<a href="${href({ per_page: String(n), page: '1' })}">${n}</a> `,
  )}</span>
</nav>`;
}
