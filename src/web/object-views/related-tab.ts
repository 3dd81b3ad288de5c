/**
 * A related-list tab (`ModelUi.tabs`): the objects of another model that name this one, at
 * `<object>/<slug>/`, as the list page shows them (core/crud/read.ts listObjects with the REST
 * filter naming this object, so the user's view scope applies): the filter form, sortable columns,
 * paging, the selection form for the bulk pages (which come back here), and the tab's columns or
 * the listed model's. NetBox: a device's Interfaces tab and its siblings, paginated (#6001).
 */
import { perPagePref } from '../user-prefs.js';
import type { UiTab } from '../../core/model/types.js';
import type { ModelDef } from '../../core/model/types.js';
import { countObjects, listObjects } from '../../core/crud/read.js';
import { filterChips, filterForm } from '../components/filter-form.js';
import { objectTable, type TableOptions } from '../components/object-table.js';
import { pager } from '../components/pager.js';
import { html } from '../html.js';
import { capitalize } from '../labels.js';
import { uiOf } from '../model-ui.js';
import { listPath } from '../navigation/menu.js';
import { bulkForm, pageOfQuery } from '../model-pages/list.page.js';
import { can, hrefOf, objectPath, type Query, queryOf } from '../model-pages/page-shell.js';
import { filtersOf } from '../model-pages/bulk/selection.js';
import type { ObjectTab, ViewInput } from './index.js';
import { rowExtras } from './row-extras.js';

type Tab = UiTab & { target: ModelDef };

export function relatedTab(tab: Tab): ObjectTab {
  return {
    slug: tab.slug,
    label: tab.label ?? capitalize(tab.target.verboseNamePlural),
    async count(rc, obj) {
      if (!(await can(rc, tab.target)).view) return null;
      const kept = tab.countKey ? obj[tab.countKey] : undefined;
      const n = typeof kept === 'number' ? kept : await countObjects(rc, tab.target, narrowing(tab, obj.id));
      return n ? n : null;
    },
    render: (input) => renderRelated(tab, input),
  };
}

/** the filters that narrow the tab to this object: its `param`, then the tab's fixed filters */
function narrowing(tab: Tab, id: unknown): Query {
  return new Map([
    [tab.param, [String(id)]],
    ...Object.entries(tab.filters ?? {}).map(([k, v]) => [k, [v]] as [string, string[]]),
  ]);
}

/** the tab's table: the URL's filters, sort and page, always narrowed to this object */
async function renderRelated(tab: Tab, { request, reply, model, obj }: ViewInput) {
  const rc = request.rc;
  const target = tab.target;
  const path = `${objectPath(model, obj.id)}${tab.slug}/`;
  const query = queryOf(request);
  for (const k of narrowing(tab, obj.id).keys()) query.delete(k);
  const { params, perPage, pageNo, sort, sortable } = pageOfQuery(target, query, await perPagePref(rc));
  for (const [k, v] of narrowing(tab, obj.id)) params.set(k, v);
  const list = (await listObjects(rc, target, params)) as { count: number; results: TableOptions['rows'] };
  const with_ = (extra: Record<string, string>) => {
    const q = new Map(query);
    for (const [k, v] of Object.entries(extra)) q.set(k, [v]);
    return hrefOf(path, q);
  };
  const back = hrefOf(path, query);
  const extras = await rowExtras(rc, target, list.results, tab.columns ?? uiOf(rc.app.registry, target).columns, back);
  const table = objectTable({
    model: target,
    rows: list.results,
    ...extras,
    sortable,
    sort,
    sortHref: (s) => with_({ sort: s, page: '1' }),
    href: (row) => objectPath(target, row.id),
  });
  const allowed = await can(rc, target);
  // the bulk pages act on this object's rows only: its filter rides in their URLs with the others
  const filters = filtersOf(query);
  for (const [k, v] of narrowing(tab, obj.id)) filters.set(k, v);
  // the add form filled in with this object: the listed model's fk to it (a template's `device_type`
  // for `devicetype_id`), else the filter's name without `_id`
  const fkHere = Object.entries(target.fields).find(([, f]) => f.kind === 'fk' && f.to === model.name)?.[0];
  const addQuery = new URLSearchParams({ [fkHere ?? tab.param.replace(/_id$/, '')]: String(obj.id), return_url: path });
  return html`<div class="tab-head">
  <h2>${capitalize(target.verboseNamePlural)} <span class="count">${list.count.toLocaleString('en')}</span></h2>
  ${allowed.add ? html`<div class="actions"><a class="button" href="${listPath(target)}add/?${addQuery.toString()}">Add ${target.verboseName}</a></div>` : ''}
</div>
${await filterForm(rc, target, query, path, { maxPickers: 0 })}
${await filterChips(rc, target, query, (q) => hrefOf(path, q))}
${await bulkForm(request, reply, target, allowed, table, list.count, filters, back)}
${pager(list.count, pageNo, perPage, with_)}`;
}
