/**
 * A prefix's Child prefixes tab and an aggregate's Prefixes tab (`prefixes/`): the children in
 * address order as a hierarchy (indented by their depth under the parent), each with its
 * utilisation, and the free space between them as rows of CIDR blocks that open the add form
 * pre-filled (NetBox 3.4 PrefixPrefixesView / AggregatePrefixesView with add_requested_prefixes:
 * free blocks only once a child exists, `show_available=false` hides them). Paged by children:
 * a free block sits on the page of the child after it, the last ones on the last page.
 * Statements per page: the count (the prefix list's, cached until a write), the window
 * (child-prefix-window.ts), the rows' representation, their utilisation (utilisation.ts); none per row.
 */
import { sql } from 'kysely';
import { hasPermission } from '../../core/auth/permissions.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { broadcastOf, format, networkOf, parseIp } from '../../core/net/ip.js';
import { render } from '../../core/represent/render.js';
import { cidrBlocks } from '../../apps/ipam/available.js';
import { cell, type Represented } from '../components/cells.js';
import { utilisationMeter } from '../components/meter.js';
import { columnLabel } from '../components/object-table.js';
import { html, type Html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath, queryOf } from '../model-pages/page-shell.js';
import { withGaps } from './available-rows.js';
import {
  type ChildRow,
  childrenOfPrefix,
  childWindow,
  countChildren,
  type PrefixParent,
  prefixesOfAggregate,
} from './child-prefix-window.js';
import { nextPrefixForm } from './next-available.view.js';
import type { ObjectTab, ViewInput } from './index.js';
import { availableToggle, lastPage, noticeOf, pagingOf, showAvailableOf, spaceHead, spacePager } from './space-page.js';
import { prefixUtilisation } from './utilisation.js';

const COLUMNS = ['status', 'children', 'vrf', 'tenant', 'site', 'vlan', 'role', 'description'];

type Parent = 'prefix' | 'aggregate';

const parentOf = (kind: Parent, obj: Represented): PrefixParent =>
  kind === 'prefix' ? childrenOfPrefix(obj) : prefixesOfAggregate(obj);

export function childPrefixesTab(kind: Parent): ObjectTab {
  return {
    slug: 'prefixes',
    label: kind === 'prefix' ? 'Child prefixes' : 'Prefixes',
    async count(rc, obj) {
      const model = rc.app.registry.get('ipam.prefix');
      if (!(await hasPermission(rc, model, 'view'))) return null;
      return countChildren(rc, model, parentOf(kind, obj));
    },
    render: (input) => renderChildren(kind, input),
  };
}

/** the add form of a free block, with what NetBox carries over from the parent prefix */
function addHref(prefixes: ModelDef, kind: Parent, obj: Represented, block: string | null, back: string): string {
  const q = new URLSearchParams(block ? { prefix: block } : {});
  if (kind === 'prefix') {
    const id = (k: string) => String((obj[k] as Row | null)?.id ?? '');
    for (const k of ['vrf', 'site', 'tenant']) if (id(k)) q.set(k, id(k));
  }
  q.set('return_url', back);
  return `${listPath(prefixes)}add/?${q.toString()}`;
}

async function renderChildren(kind: Parent, { request, model, obj }: ViewInput): Promise<Html> {
  const rc = request.rc;
  const prefixModel = rc.app.registry.get('ipam.prefix');
  const path = `${objectPath(model, obj.id)}prefixes/`;
  const query = queryOf(request);
  const available = showAvailableOf(query);
  const parent = parentOf(kind, obj);
  const net = networkOf(parseIp(String(obj.prefix))!);
  const total = (await countChildren(rc, prefixModel, parent)) ?? 0;
  let paging = pagingOf(query);
  // a page past the end shows the last one
  if (paging.offset >= total && total) paging = pagingOf(query, lastPage(total, paging.perPage));
  const win = total ? await childWindow(rc, prefixModel, parent, paging.offset, paging.perPage) : null;
  const rowsShown = win?.rows ?? [];
  const ids = rowsShown.map((r) => r.id);
  const stored = ids.length
    ? (await sql<Row>`select * from ipam_prefix where id = any(${ids}::bigint[])`.execute(rc.q)).rows
    : [];
  const shown = new Map((await render(rc, prefixModel, stored, 'full')).map((r) => [Number(r.id), r as Represented]));
  const util = await prefixUtilisation(rc, ids);
  const isLast = paging.offset + paging.perPage >= total;
  const spans = rowsShown.map((r) => ({ ...r, start: r.net.value, end: broadcastOf(r.net) }));
  const placed =
    available.show && total
      ? withGaps(spans, net.value, broadcastOf(net), win?.coveredBefore ?? null, isLast)
      : spans.map((item) => ({ item }));
  const allowed = await can(rc, prefixModel);
  const back = request.url;
  const colspan = COLUMNS.length + 1;
  const row = (r: ChildRow): Html => {
    const o = shown.get(r.id);
    if (!o) return html``;
    return html`<tr data-depth="${r.depth}"><td class="prefix-cell">${Array.from({ length: r.depth }, () => html`<span class="indent" aria-hidden="true"></span>`)}<a href="${objectPath(prefixModel, r.id)}">${format(r.net)}</a>${r.depth ? html`<span class="sr-only"> (depth ${r.depth})</span>` : ''}</td>${COLUMNS.map((k) => html`<td>${k === 'children' ? String(o.children ?? 0) : cell(k, o[k])}</td>`)}<td>${utilisationMeter(util.get(r.id) ?? 0, `Utilisation of ${format(r.net)}`)}</td></tr>`;
  };
  const free = (start: bigint, end: bigint): Html[] =>
    cidrBlocks([{ start, end }], net.family).map((b) => {
      const block = format({ family: net.family, ...b });
      return html`<tr class="available"><td>${allowed.add ? html`<a href="${addHref(prefixModel, kind, obj, block, back)}">${block}</a>` : block}</td><td><span class="badge tone-ok">Available</span></td><td colspan="${colspan - 1}"></td></tr>`;
    });
  const body = placed.map((p) => ('item' in p ? row(p.item) : free(p.gap.start, p.gap.end)));
  const table = total
    ? html`<div class="table-wrap"><table class="objects space">
<thead><tr><th scope="col">Prefix</th>${COLUMNS.map((k) => html`<th scope="col">${columnLabel(prefixModel, k)}</th>`)}<th scope="col">Utilisation</th></tr></thead>
<tbody>${body}</tbody></table></div>`
    : html`<p class="empty">No child prefixes.</p>`;
  const addAction = allowed.add
    ? html`<a class="button" href="${addHref(prefixModel, kind, obj, null, back)}">Add prefix</a>`
    : '';
  return html`${spaceHead(kind === 'prefix' ? 'Child prefixes' : 'Prefixes', total, addAction)}
<div class="space-tools">${availableToggle(path, query, available)}${kind === 'prefix' && allowed.add ? nextPrefixForm(model, obj, net) : ''}</div>
${noticeOf(available)}
${table}
${total ? spacePager(path, query, total, paging) : ''}`;
}
