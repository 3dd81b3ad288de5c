/**
 * A widget's content, read as the user may see it (NetBox 3.6 widgets.py, each class's render):
 * counts and lists through core's countObjects and listObjects, so view permissions and their
 * constraints apply; a note through markdown (raw HTML escaped); bookmarks of the signed-in user.
 * A read the filters make fail (a 400) is a message in its widget, never the page's error.
 */
import type { RequestContext } from '../../core/context.js';
import { hasPermission } from '../../core/auth/permissions.js';
import { countEach } from '../../core/crud/count-each.js';
import { listObjects } from '../../core/crud/read.js';
import { isPlainObject } from '../../core/crud/parse-field.js';
import { ApiError } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { cell, objectHref, type Represented } from '../components/cells.js';
import { markdown } from '../components/markdown.js';
import { columnLabel } from '../components/object-table.js';
import { errorLines } from '../error-lines.js';
import { html, type Html } from '../html.js';
import { capitalize } from '../labels.js';
import { uiOf } from '../model-ui.js';
import { hasPages } from '../model-pages/index.js';
import { hrefOf, objectPath } from '../model-pages/page-shell.js';
import { listPath } from '../navigation/menu.js';
import type { Widget } from './grid.js';

type Params = Map<string, string[]>;

/** a JSON object of filters (NetBox's dict_to_querydict) as query parameters */
function paramsOf(v: unknown): Params {
  const out: Params = new Map();
  if (!isPlainObject(v)) return out;
  for (const [k, x] of Object.entries(v)) {
    if (x === null || x === undefined) continue;
    const list = Array.isArray(x) ? x : [x];
    out.set(
      k,
      list.map((i) => (typeof i === 'object' && i !== null ? JSON.stringify(i) : String(i))),
    );
  }
  return out;
}

/** NetBox 4.0 moved the change log to `core` (its default dashboard names core.objectchange) */
const MOVED: Record<string, string> = { 'core.objectchange': 'extras.objectchange' };

function modelOf(rc: RequestContext, name: unknown): ModelDef | undefined {
  const key = typeof name === 'string' ? name.toLowerCase() : '';
  const model = rc.app.registry.find(MOVED[key] ?? key);
  return model && hasPages(model) ? model : undefined;
}

function problem(err: unknown): Html {
  if (err instanceof ApiError && err.statusCode < 500)
    return html`<p class="field-error" role="alert">${errorLines(err.body).join(' ')}</p>`;
  throw err;
}

async function objectCounts(rc: RequestContext, config: Record<string, unknown>): Promise<Html> {
  // NetBox skips a model it does not know; one the user may not view is left out, as in the menu
  const models = (Array.isArray(config.models) ? config.models : []).flatMap((name) => modelOf(rc, name) ?? []);
  const filters = paramsOf(config.filters);
  const counts = await countEach(rc, models, filters);
  const rows = models.flatMap((model, i) => {
    const c = counts[i]!;
    if ('hidden' in c) return [];
    const label = capitalize(model.verboseNamePlural);
    if ('error' in c) return [html`<tr><td>${label}</td><td>${problem(c.error)}</td></tr>`];
    return [
      html`<tr><td><a href="${hrefOf(listPath(model), filters)}">${label}</a></td><td class="num">${c.n.toLocaleString('en')}</td></tr>`,
    ];
  });
  return rows.length ? html`<table>${rows}</table>` : html`<p class="muted">Nothing here you may view.</p>`;
}

const DEFAULT_PAGE_SIZE = 10;

async function objectList(rc: RequestContext, config: Record<string, unknown>): Promise<Html> {
  const model = modelOf(rc, config.model);
  if (!model) return html`<p class="muted">Unknown model: ${String(config.model ?? '')}</p>`;
  if (!(await hasPermission(rc, model, 'view')))
    return html`<p class="muted">You may not view ${model.verboseNamePlural}.</p>`;
  const filters = paramsOf(config.url_params);
  // NetBox's list-view parameters that are not filters of the read
  for (const k of ['per_page', 'page', 'embedded', 'limit', 'offset']) filters.delete(k);
  const size = Number.isInteger(config.page_size)
    ? Math.min(100, Math.max(1, config.page_size as number))
    : DEFAULT_PAGE_SIZE;
  const params: Params = new Map(filters);
  const sort = params.get('sort');
  if (sort) {
    params.delete('sort');
    params.set('ordering', sort);
  }
  params.set('limit', [String(size)]);
  let page: { count: number; results: Represented[] };
  try {
    page = (await listObjects(rc, model, params)) as typeof page;
  } catch (err) {
    return problem(err);
  }
  const all = html`<p><a href="${hrefOf(listPath(model), filters)}">All ${page.count.toLocaleString('en')} ${model.verboseNamePlural}</a></p>`;
  if (!page.results.length) return html`<p class="muted">No ${model.verboseNamePlural} found.</p>${all}`;
  const columns = uiOf(rc.app.registry, model).columns.slice(0, 6);
  return html`<div class="table-wrap"><table class="objects">
<thead><tr>${columns.map((k) => html`<th scope="col">${columnLabel(model, k)}</th>`)}</tr></thead>
<tbody>${page.results.map(
    (row) =>
      html`<tr>${columns.map((k, i) =>
        i === 0
          ? html`<td><a href="${objectPath(model, row.id)}">${String(row.display ?? row.id)}</a></td>`
          : html`<td>${cell(k, row[k])}</td>`,
      )}</tr>`,
  )}</tbody></table></div>${all}`;
}

async function bookmarks(rc: RequestContext, config: Record<string, unknown>): Promise<Html> {
  const model = rc.app.registry.find('extras.bookmark');
  if (!rc.user || !model)
    // the sign-in links are in the header and above the widgets
    return html`<p class="muted">Your bookmarks show here once you sign in.</p>`;
  const params: Params = new Map([['user_id', [String(rc.user.id)]]]);
  const types = Array.isArray(config.object_types) ? config.object_types.map((t) => String(t).toLowerCase()) : [];
  if (types.length) params.set('object_type', types);
  const order = String(config.order_by ?? '-created');
  if (order === 'created' || order === '-created') params.set('ordering', [order]);
  const max =
    Number.isInteger(config.max_items) && (config.max_items as number) > 0 ? (config.max_items as number) : 50;
  // NetBox sorts by name in Python (a bookmark's name is its object's): here the first page in creation order
  params.set('limit', [String(Math.min(max, 1000))]);
  let rows: Represented[];
  try {
    rows = (await listObjects(rc, model, params)).results as Represented[];
  } catch (err) {
    return problem(err);
  }
  const shown = rows.map((b) => {
    const o = b.object as Represented | null;
    return { href: o ? objectHref(o.url) : null, text: String(o?.display ?? b.display) };
  });
  if (order === 'name' || order === '-name') {
    shown.sort((a, b) => a.text.toLowerCase().localeCompare(b.text.toLowerCase()));
    if (order === '-name') shown.reverse();
  }
  if (!shown.length) return html`<p class="muted">No bookmarks yet.</p>`;
  return html`<ul>${shown.map((b) => html`<li>${b.href ? html`<a href="${b.href}">${b.text}</a>` : b.text}</li>`)}</ul>`;
}

/** NetBox fetches the feed; this service reaches only its own database, so it says so */
function rssFeed(config: Record<string, unknown>): Html {
  const url = typeof config.feed_url === 'string' ? config.feed_url : '';
  const linkable = /^https?:\/\//i.test(url);
  return html`<p class="muted">Feeds are not fetched by this service.</p>${
    url ? html`<p>Feed: ${linkable ? html`<a href="${url}" rel="noopener noreferrer">${url}</a>` : url}</p>` : ''
  }`;
}

/** The content of one widget; an unknown class says so (muted), as does a stored config it cannot read. */
export async function widgetContent(rc: RequestContext, w: Widget): Promise<Html> {
  switch (w.class) {
    case 'extras.NoteWidget':
      return markdown(typeof w.config.content === 'string' ? w.config.content : '');
    case 'extras.ObjectCountsWidget':
      return objectCounts(rc, w.config);
    case 'extras.ObjectListWidget':
      return objectList(rc, w.config);
    case 'extras.BookmarksWidget':
      return bookmarks(rc, w.config);
    case 'extras.RSSFeedWidget':
      return rssFeed(w.config);
    default:
      return html`<p class="muted">Unknown widget${w.class ? html`: <code>${w.class}</code>` : ''}.</p>`;
  }
}
