/**
 * What a list page adds above its JSON (Django REST framework's browsable API has pagination and a
 * filter form; ours also works without JavaScript): the count with previous/next links, the
 * filters in force (each removable), and one GET form with the search, the ordering, the page
 * size, the brief toggle and an "add a filter" pair whose name input suggests the model's filter
 * names (a <datalist>, made once per model from the same resolver the query uses).
 */
import type { ModelDef } from '../../core/model/types.js';
import { filterParameters } from '../../core/query/filter-parameters.js';
import { orderingNames } from '../../core/query/ordering.js';
import { attrs, html, type Html } from '../html.js';
import { localPath } from '../page-context.js';
import { FILTER_NAME, FILTER_VALUE, joinUrl, type Pairs } from './query-string.js';

/** parameters the form has its own inputs for */
const FORM_PARAMS = new Set(['q', 'ordering', 'limit', 'offset', 'brief']);
/** parameters that are not filters: kept, but not listed as filters */
const NOT_FILTERS = new Set([...FORM_PARAMS, 'format']);

const datalists = new WeakMap<ModelDef, Html>();

function datalistsOf(model: ModelDef): Html {
  let out = datalists.get(model);
  if (!out) {
    const filters = filterParameters(model).map(([name]) => name);
    out = html`<datalist id="filter-names">${filters.map((n) => html`<option value="${n}">`)}</datalist>
<datalist id="ordering-names">${orderingNames(model).flatMap((n) => [html`<option value="${n}">`, html`<option value="-${n}">`])}</datalist>`;
    datalists.set(model, out);
  }
  return out;
}

function first(pairs: Pairs, name: string): string {
  return pairs.find(([k]) => k === name)?.[1] ?? '';
}

function pager(body: Record<string, unknown>, baseUrl: string): Html {
  const link = (url: unknown, rel: string, label: string) =>
    typeof url === 'string'
      ? html`<a class="button secondary" rel="${rel}" href="${localPath(url, baseUrl)}">${label}</a>`
      : html`<span class="button secondary disabled" aria-disabled="true">${label}</span>`;
  const count = typeof body.count === 'number' ? body.count : null;
  return html`<div class="pager">${link(body.previous, 'prev', '« Previous')}${link(body.next, 'next', 'Next »')}${
    count !== null
      ? html`<span class="muted">${count.toLocaleString('en')} ${count === 1 ? 'object' : 'objects'}</span>`
      : ''
  }</div>`;
}

function activeFilters(path: string, pairs: Pairs): Html {
  const filters = pairs.map((p, i) => [p, i] as const).filter(([[k]]) => !NOT_FILTERS.has(k));
  if (!filters.length) return html``;
  return html`<ul class="chips" aria-label="Filters in force">${filters.map(([[k, v], i]) => {
    // removing a filter starts again at the first page
    const rest = pairs.filter((_, j) => j !== i && pairs[j]![0] !== 'offset');
    return html`<li><code>${k}=${v}</code> <a href="${joinUrl(path, rest)}" title="Remove this filter" aria-label="Remove ${k}=${v}">×</a></li>`;
  })}</ul>`;
}

/** The controls of a list page; `body` is the list's JSON (count, next, previous, results). */
export function listControls(
  model: ModelDef,
  path: string,
  pairs: Pairs,
  body: Record<string, unknown>,
  baseUrl: string,
): Html {
  const kept = pairs.filter(([k]) => !FORM_PARAMS.has(k));
  const brief = ['true', '1', 'True'].includes(first(pairs, 'brief'));
  return html`<section class="panel list-controls">
${pager(body, baseUrl)}
${activeFilters(path, pairs)}
<form method="get" action="${path}" class="filter-form">
  ${kept.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
  <div class="fields">
    <label>Search <input type="search" name="q" value="${first(pairs, 'q')}"></label>
    <label>Ordering <input type="text" name="ordering" list="ordering-names" value="${first(pairs, 'ordering')}" placeholder="name,-id"></label>
    <label>Per page <input type="number" name="limit" min="0" value="${first(pairs, 'limit')}"></label>
    <label class="check"><input type="checkbox" name="brief" value="true"${attrs({ checked: brief })}> Brief</label>
  </div>
  <div class="fields">
    <label>Add a filter <input type="text" name="${FILTER_NAME}" list="filter-names" placeholder="status, site_id, name__ic..."></label>
    <label>Value <input type="text" name="${FILTER_VALUE}"></label>
    <div class="actions"><button type="submit">Apply</button></div>
  </div>
  ${datalistsOf(model)}
</form>
</section>`;
}
