/**
 * The IP addresses tab (`ip-addresses/`) of a prefix and of an IP range: the addresses (and, in a
 * prefix, its IP ranges) in address order with an available row for each free run between them,
 * its size and its first address linking to the add form pre-filled (NetBox 3.4
 * PrefixIPAddressesView / add_available_ipaddresses: an IPv4 non-pool prefix shorter than /31
 * offers neither its network nor its broadcast address). Paged by addresses and ranges: a free
 * run sits on the page of what follows it, the last one on the last page. Statements per page:
 * the counts (the lists', cached until a write), the window (address-window.ts) and the
 * representation of its addresses and ranges.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { broadcastOf, formatAddress, networkOf, parseIp } from '../../core/net/ip.js';
import { render } from '../../core/represent/render.js';
import { cell, type Represented } from '../components/cells.js';
import { columnLabel } from '../components/object-table.js';
import { html, type Html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath, queryOf } from '../model-pages/page-shell.js';
import { type AddressSpan, addressWindow, countSpan, type SpanItem } from './address-window.js';
import { withGaps } from './available-rows.js';
import type { ObjectTab, ViewInput } from './index.js';
import { nextAddressLink } from './next-available.view.js';
import { availableToggle, lastPage, noticeOf, pagingOf, showAvailableOf, spaceHead, spacePager } from './space-page.js';

/** NetBox's AnnotatedIPAddressTable columns after the address */
const COLUMNS = ['vrf', 'status', 'role', 'tenant', 'assigned_object', 'dns_name', 'description'];

type Parent = 'prefix' | 'range';

const idOf = (v: unknown) => ((v as Row | null)?.id as number | undefined) ?? null;

interface Span extends AddressSpan {
  /** the addresses the available rows offer (a prefix's usable ones) */
  usableFirst: bigint;
  usableLast: bigint;
  /** the mask length of the addresses offered */
  length: number;
}

function spanOf(kind: Parent, obj: Represented): Span {
  const vrfId = idOf(obj.vrf);
  if (kind === 'range') {
    const s = parseIp(String(obj.start_address))!;
    const e = parseIp(String(obj.end_address))!;
    return {
      family: s.family,
      first: s.value,
      last: e.value,
      vrfId,
      usableFirst: s.value,
      usableLast: e.value,
      length: s.prefixLength,
    };
  }
  const net = networkOf(parseIp(String(obj.prefix))!);
  const last = broadcastOf(net);
  const container = (obj.status as Row | null)?.value === 'container';
  const trim = net.family === 4 && net.prefixLength < 31 && obj.is_pool !== true;
  return {
    family: net.family,
    first: net.value,
    last,
    vrfId: vrfId === null && container ? undefined : vrfId,
    rangeVrfId: vrfId,
    cidr: `${formatAddress(net.family, net.value)}/${net.prefixLength}`,
    usableFirst: trim ? net.value + 1n : net.value,
    usableLast: trim ? last - 1n : last,
    length: net.prefixLength,
  };
}

export function spanAddressesTab(kind: Parent): ObjectTab {
  return {
    slug: 'ip-addresses',
    label: 'IP addresses',
    count: (rc, obj) => countSpan(rc, spanOf(kind, obj)),
    render: (input) => renderAddresses(kind, input),
  };
}

async function representedById(rc: RequestContext, model: ModelDef, ids: number[]) {
  if (!ids.length) return new Map<number, Represented>();
  const rows = (await sql<Row>`select * from ${sql.table(model.table)} where id = any(${ids}::bigint[])`.execute(rc.q))
    .rows;
  return new Map((await render(rc, model, rows, 'full')).map((r) => [Number(r.id), r as Represented]));
}

async function renderAddresses(kind: Parent, { request, model, obj }: ViewInput): Promise<Html> {
  const rc = request.rc;
  const ipModel = rc.app.registry.get('ipam.ipaddress');
  const rangeModel = rc.app.registry.get('ipam.iprange');
  const path = `${objectPath(model, obj.id)}ip-addresses/`;
  const query = queryOf(request);
  const available = showAvailableOf(query);
  const span = spanOf(kind, obj);
  const total = await countSpan(rc, span);
  if (total === null) return html`<p class="empty">You may not view IP addresses.</p>`;
  let paging = pagingOf(query);
  // a page past the end shows the last one
  if (paging.offset >= total && total) paging = pagingOf(query, lastPage(total, paging.perPage));
  const win = (total ? await addressWindow(rc, span, paging.offset, paging.perPage) : null) ?? {
    items: [],
    coveredBefore: null,
  };
  const ids = (k: SpanItem['kind']) => win.items.filter((i) => i.kind === k).map((i) => i.id);
  const addresses = await representedById(rc, ipModel, ids('address'));
  const ranges = await representedById(rc, rangeModel, ids('range'));
  const isLast = paging.offset + paging.perPage >= total;
  const placed = available.show
    ? withGaps(win.items, span.usableFirst, span.usableLast, win.coveredBefore, isLast)
    : win.items.map((item) => ({ item }));
  const allowed = await can(rc, ipModel);
  const back = request.url;
  const addHref = (first: string) => {
    const q = new URLSearchParams({ address: `${first}/${span.length}` });
    const vrf = idOf(obj.vrf);
    if (vrf !== null) q.set('vrf', String(vrf));
    const tenant = idOf(obj.tenant);
    if (tenant !== null) q.set('tenant', String(tenant));
    q.set('return_url', back);
    return `${listPath(ipModel)}add/?${q.toString()}`;
  };
  const item = (i: SpanItem): Html => {
    const o = (i.kind === 'address' ? addresses : ranges).get(i.id);
    if (!o) return html``;
    const target = i.kind === 'address' ? ipModel : rangeModel;
    return html`<tr${i.kind === 'range' ? html` class="range"` : ''}><td><a href="${objectPath(target, i.id)}">${String(o.display ?? i.id)}</a>${i.kind === 'range' ? html` <span class="badge tone-info">IP range</span>` : ''}</td>${COLUMNS.map((k) => html`<td>${cell(k, o[k])}</td>`)}</tr>`;
  };
  const free = (start: bigint, end: bigint): Html => {
    const first = formatAddress(span.family, start);
    const n = end - start + 1n;
    const text = `${n.toLocaleString('en')} IP${n === 1n ? '' : 's'} available`;
    return html`<tr class="available" data-first="${first}" data-size="${n.toString()}"><td>${allowed.add ? html`<a href="${addHref(first)}">${first}/${span.length}</a>` : `${first}/${span.length}`}</td><td colspan="${COLUMNS.length}"><span class="badge tone-ok">Available</span> ${text}</td></tr>`;
  };
  const body = placed.map((p) => ('item' in p ? item(p.item) : free(p.gap.start, p.gap.end)));
  const table = body.length
    ? html`<div class="table-wrap"><table class="objects space">
<thead><tr><th scope="col">Address</th>${COLUMNS.map((k) => html`<th scope="col">${k === 'assigned_object' ? 'Assigned' : columnLabel(ipModel, k)}</th>`)}</tr></thead>
<tbody>${body}</tbody></table></div>`
    : html`<p class="empty">No IP addresses.</p>`;
  return html`${spaceHead('IP addresses', total, allowed.add ? nextAddressLink(model, obj) : '')}
<div class="space-tools">${availableToggle(path, query, available)}</div>
${noticeOf(available)}
${table}
${total ? spacePager(path, query, total, paging) : ''}`;
}
