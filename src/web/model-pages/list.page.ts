/**
 * A model's list at NetBox's UI path (`/dcim/devices/`): the REST list read as the API reads it
 * (filters, the user's view scope, ordering, paging: core/crud/read.ts listObjects) shown as a
 * table. The URL is the whole state: `?q=`, every REST filter and lookup, `sort` (NetBox's name for
 * `ordering`), `per_page` and `page`. The columns are the user's choice, kept server-side per table
 * (`POST <list>table-config/`), or the model's defaults.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, RequestContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { orderingNames } from '../../core/query/ordering.js';
import { isFilterParam, filterChips, filterForm } from '../components/filter-form.js';
import { renamable } from './bulk/bulk-rename.page.js';
import { filtersOf } from './bulk/selection.js';
import { columnLabel, objectTable } from '../components/object-table.js';
import { PAGE_SIZES, pager } from '../components/pager.js';
import { html, attrs, type Html } from '../html.js';
import { uiOf } from '../model-ui.js';
import { capitalize } from '../labels.js';
import { listPath, viewPagesOf } from '../navigation/menu.js';
import { csrfField, pageContext } from '../page-context.js';
import { DEFAULT_PER_PAGE, getPref, perPagePref } from '../user-prefs.js';
import { exportMenu } from '../export/export-menu.js';
import { sendListExport } from '../export/list-export.js';
import { importedNotice } from './import.page.js';
import {
  type Can,
  can,
  customFieldsOf,
  hrefOf,
  modelCrumbs,
  objectPath,
  type Query,
  queryOf,
  sendErrorPage,
  sendModelPage,
} from './page-shell.js';

/** the URL's page size, else the user's (their preference `pagination.per_page`, user-prefs.ts) */
export function perPageOf(query: Query, preferred = DEFAULT_PER_PAGE): number {
  const n = Number(query.get('per_page')?.[0]);
  return PAGE_SIZES.includes(n) ? n : preferred;
}

/**
 * A list page's read of its URL: the REST filters (empty values dropped), the page as limit and
 * offset, and the sort when the model sorts by it (NetBox's `sort`, the API's `ordering`)
 */
export function pageOfQuery(model: ModelDef, query: Query, preferredPerPage?: number) {
  const perPage = perPageOf(query, preferredPerPage);
  const pageNo = Math.max(1, Math.floor(Number(query.get('page')?.[0]) || 1));
  const sort = query.get('sort')?.[0] ?? '';
  const params: Query = new Map();
  for (const [k, v] of query)
    if (isFilterParam(k))
      params.set(
        k,
        v.filter((x) => x !== ''),
      );
  params.set('limit', [String(perPage)]);
  params.set('offset', [String((pageNo - 1) * perPage)]);
  const sortable = new Set(orderingNames(model));
  if (sort && sortable.has(sort.replace(/^-/, ''))) params.set('ordering', [sort]);
  return { params, perPage, pageNo, sort, sortable };
}

/** the columns this user shows: their saved choice (still selectable ones), else the model's */
export async function columnsFor(ctx: AppContext, request: FastifyRequest, model: ModelDef): Promise<string[]> {
  const ui = uiOf(ctx.registry, model);
  const saved = await getPref(request.rc, ui.tableKey);
  const all = await selectableColumns(request, model);
  if (Array.isArray(saved)) {
    const cols = saved.filter((c): c is string => typeof c === 'string' && all.includes(c));
    if (cols.length) return cols;
  }
  return ui.columns.filter((c) => all.includes(c) || c === 'display');
}

/** the model's columns and one per custom field of the model (`cf_<name>`) */
export async function selectableColumns(request: FastifyRequest, model: ModelDef): Promise<string[]> {
  const rc = request.rc;
  const ui = uiOf(rc.app.registry, model);
  const cfs = await customFieldsOf(rc, model);
  return ['display', ...ui.selectable.filter((c) => c !== 'display'), ...cfs.map((cf) => `cf_${cf.name}`)];
}

export async function listPage(ctx: AppContext, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  const path = listPath(model);
  const crumbs = modelCrumbs(model)
    .slice(0, -1)
    .concat({ label: capitalize(model.verboseNamePlural) });
  const query = queryOf(request);
  if (query.has('export'))
    try {
      return await sendListExport(model, request, reply, query, () => columnsFor(ctx, request, model));
    } catch (err) {
      return sendErrorPage(request, reply, err, crumbs);
    }
  const { params, perPage, pageNo, sort, sortable } = pageOfQuery(model, query, await perPagePref(request.rc));
  let list: { count: number; results: Array<Record<string, unknown>> };
  try {
    const allowed = await can(rc, model);
    if (!allowed.view) throw Errors.permissionDenied();
    list = (await listObjects(rc, model, params)) as typeof list;
    const columns = await columnsFor(ctx, request, model);
    const with_ = (extra: Record<string, string>) => {
      const q = new Map(query);
      for (const [k, v] of Object.entries(extra)) q.set(k, [v]);
      return hrefOf(path, q);
    };
    const table = objectTable({
      model,
      rows: list.results,
      columns,
      sortable,
      sort,
      sortHref: (s) => with_({ sort: s, page: '1' }),
      href: (row) => objectPath(model, row.id),
    });
    const body = html`<div class="page-head">
  <h1>${capitalize(model.verboseNamePlural)} <span class="count">${list.count.toLocaleString('en')}</span></h1>
  <div class="actions">${allowed.add ? html`<a class="button primary" href="${path}add/" data-hotkey="n">Add</a>` : ''}${allowed.add ? html` <a class="button" href="${path}import/">Import</a>` : ''}${await exportMenu(rc, model, path, query)}${viewPagesOf(model).map((p) => html` <a class="button" href="${hrefOf(p.href, filtersOf(query))}">${p.label}</a>`)}</div>
</div>
${await filterForm(rc, model, query, path)}
${await filterChips(rc, model, query, (q) => hrefOf(path, q))}
${await bulkForm(request, reply, model, allowed, table, list.count, filtersOf(query), hrefOf(path, query))}
${pager(list.count, pageNo, perPage, with_)}
${await columnChooser(request, reply, model, columns, path, hrefOf(path, query))}`;
    return sendModelPage(request, reply, {
      title: capitalize(model.verboseNamePlural),
      crumbs,
      body,
      flash: doneNotice(model, query) ?? importedNotice(query),
    });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

/**
 * The table inside the form that posts its selection to the bulk pages: the ticked rows (`pk`), or
 * with "all N matching" every object the filters match (the filters ride in each button's URL, and
 * `_count` lets the bulk page refuse a set that has changed since). Buttons only for what the user
 * may do; none for a model the pages do not write.
 */
export async function bulkForm(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelDef,
  allowed: Can,
  table: Html,
  count: number,
  filters: Query,
  back: string,
): Promise<Html> {
  const path = listPath(model);
  const buttons = [
    allowed.change
      ? html`<button type="submit" formaction="${hrefOf(`${path}edit/`, filters)}">Edit selected</button>`
      : '',
    allowed.change && renamable(model)
      ? html`<button type="submit" formaction="${hrefOf(`${path}rename/`, filters)}">Rename selected</button>`
      : '',
    await addComponentsMenu(request.rc, model, filters),
    // the export reads `pk` and `export` from the form, the filters and sort from the URL (../export/)
    html`<button type="submit" name="export" value="table" formaction="${back}">Export selected</button>`,
    allowed.delete
      ? html`<button type="submit" class="danger" formaction="${hrefOf(`${path}delete/`, filters)}">Delete selected</button>`
      : '',
  ].filter((b) => b !== '');
  if (!buttons.length || !count) return table;
  return html`<form class="bulk" method="post" action="${hrefOf(`${path}edit/`, filters)}">
  ${csrfField(pageContext(request, reply))}
  <input type="hidden" name="return_url" value="${back}">
  ${table}
  <div class="bulk-actions">
    <label><input type="checkbox" name="_all" value="true"> Select all ${count.toLocaleString('en')} matching</label>
    <input type="hidden" name="_count" value="${String(count)}">
    ${buttons}
  </div>
</form>`;
}

/** "Add components": one button per component kind the user may add (a menu that needs no script) */
async function addComponentsMenu(rc: RequestContext, model: ModelDef, filters: Query): Promise<Html | ''> {
  const kinds: ModelDef[] = [];
  for (const c of uiOf(rc.app.registry, model).components) if ((await can(rc, c)).add) kinds.push(c);
  if (!kinds.length) return '';
  const path = listPath(model);
  return html`<details class="menu-drop add-components"><summary>Add components</summary><div class="drop">${kinds.map(
    (c) =>
      html`<button type="submit" formaction="${hrefOf(`${path}${c.path}/add/`, filters)}">${capitalize(c.verboseNamePlural)}</button>`,
  )}</div></details>`;
}

/** what a bulk page did, said once on the list it returned to (`?done=updated:30`) */
function doneNotice(model: ModelDef, query: Query): string | undefined {
  const m = /^(created|updated|deleted|renamed):(\d+)$/.exec(query.get('done')?.[0] ?? '');
  if (!m) return undefined;
  const n = Number(m[2]);
  return `${capitalize(m[1]!)} ${n.toLocaleString('en')} ${n === 1 ? model.verboseName : model.verboseNamePlural}.`;
}

/**
 * The column chooser: the shown columns in order with buttons to move them, and the others to add;
 * posts to `table-config/`, which saves the choice for this user and returns to the list.
 */
async function columnChooser(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelDef,
  columns: string[],
  path: string,
  back: string,
): Promise<Html> {
  if (!request.rc.user) return html``;
  const page = pageContext(request, reply);
  const all = await selectableColumns(request, model);
  const rest = all.filter((c) => !columns.includes(c));
  const row = (key: string, shown: boolean, i: number) =>
    html`<li><label><input type="checkbox" name="columns" value="${key}"${attrs({ checked: shown })}> ${columnLabel(model, key)}</label>${
      shown
        ? html` <button type="submit" name="up" value="${key}"${attrs({ disabled: i === 0 })} aria-label="Move ${columnLabel(model, key)} up">↑</button><button type="submit" name="down" value="${key}"${attrs({ disabled: i === columns.length - 1 })} aria-label="Move ${columnLabel(model, key)} down">↓</button>`
        : ''
    }</li>`;
  return html`<details class="columns-config"><summary>Configure table</summary>
<form method="post" action="${path}table-config/">
  ${csrfField(page)}
  <input type="hidden" name="return_url" value="${back}">
  <fieldset><legend>Shown, in order</legend><ul>${columns.map((c, i) => row(c, true, i))}</ul></fieldset>
  <fieldset><legend>Available</legend><ul>${rest.map((c) => row(c, false, 0))}</ul></fieldset>
  <p><button type="submit" class="primary">Save</button> <button type="submit" name="reset" value="1">Reset to defaults</button></p>
</form></details>`;
}
