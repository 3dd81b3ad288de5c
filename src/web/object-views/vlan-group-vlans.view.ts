/**
 * A VLAN group's VLANs tab (`vlans/`): its VLANs by VID with the free VIDs between them as rows,
 * split at the edges of the group's VID ranges (NetBox 4.0 `vid_ranges`; 3.4's min/max is one
 * range: apps/ipam/vid-ranges.ts rangesOf, as the REST available-vlans route reads it), each
 * linking to the add form with the group and the first free VID (NetBox 3.4 VLANGroupVLANsView /
 * add_available_vlans, which also lists the whole range of a group without VLANs). Paged by
 * VLANs; one statement reads the page, the one before it, the count and the group's ranges.
 */
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import type { Row } from '../../core/model/types.js';
import { render } from '../../core/represent/render.js';
import type { Interval } from '../../apps/ipam/available.js';
import { rangesOf } from '../../apps/ipam/vid-ranges.js';
import { cell, type Represented } from '../components/cells.js';
import { columnLabel } from '../components/object-table.js';
import { html, type Html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath, queryOf } from '../model-pages/page-shell.js';
import { clipToSpans, withGaps } from './available-rows.js';
import type { ObjectTab, ViewInput } from './index.js';
import {
  availableToggle,
  lastPage,
  noticeOf,
  type Paging,
  pagingOf,
  showAvailableOf,
  spaceHead,
  spacePager,
} from './space-page.js';

const COLUMNS = ['name', 'site', 'status', 'tenant', 'role', 'description'];

interface VlanWindow {
  total: number;
  vlans: Array<{ id: number; vid: number }>;
  before: number | null;
  ranges: Interval[];
}

async function vlanWindow(rc: RequestContext, groupId: number, p: Paging): Promise<VlanWindow> {
  const scope = await requirePermission(rc, rc.app.registry.get('ipam.vlan'), 'view');
  const from = Math.max(0, p.offset - 1);
  const take = p.perPage + (p.offset > 0 ? 1 : 0);
  const res = await sql<{
    total: number;
    vid_ranges: unknown;
    min_vid: number;
    max_vid: number;
    id: string | null;
    vid: number | null;
  }>`with v as (select t.id, t.vid from ipam_vlan t where t.group_id = ${groupId}
        ${scope ? sql`and ${scope}` : sql``}),
      w as (select id, vid from v order by vid, id offset ${from}::bigint limit ${take}::bigint)
    select (select count(*)::int from v) as total, g.vid_ranges, g.min_vid, g.max_vid, w.id, w.vid
    from ipam_vlangroup g left join w on true where g.id = ${groupId} order by w.vid, w.id`.execute(rc.q);
  const head = res.rows[0];
  const vlans = res.rows.filter((r) => r.id !== null).map((r) => ({ id: Number(r.id), vid: Number(r.vid) }));
  const prev = p.offset > 0 ? vlans.shift() : undefined;
  const ranges = head ? rangesOf(head as unknown as Row) : [];
  return {
    total: Number(head?.total ?? 0),
    vlans,
    before: prev ? prev.vid : null,
    ranges: ranges.map(([a, b]) => ({ start: BigInt(a), end: BigInt(b) })),
  };
}

export const vlanGroupVlansTab: ObjectTab = {
  slug: 'vlans',
  label: 'VLANs',
  async count(rc, obj) {
    const model = rc.app.registry.get('ipam.vlan');
    if (!(await hasPermission(rc, model, 'view'))) return null;
    const scope = await requirePermission(rc, model, 'view');
    const res = await sql<{ n: number }>`select count(*)::int as n from ipam_vlan t where t.group_id = ${Number(obj.id)}
      ${scope ? sql`and ${scope}` : sql``}`.execute(rc.q);
    return res.rows[0]?.n ?? 0;
  },
  render: renderVlans,
};

async function renderVlans({ request, model, obj }: ViewInput): Promise<Html> {
  const rc = request.rc;
  const vlanModel = rc.app.registry.get('ipam.vlan');
  const path = `${objectPath(model, obj.id)}vlans/`;
  const query = queryOf(request);
  const available = showAvailableOf(query);
  const groupId = Number(obj.id);
  let paging = pagingOf(query);
  let win = await vlanWindow(rc, groupId, paging);
  if (!win.vlans.length && win.total) {
    paging = pagingOf(query, lastPage(win.total, paging.perPage));
    win = await vlanWindow(rc, groupId, paging);
  }
  const ids = win.vlans.map((v) => v.id);
  const stored = ids.length
    ? (await sql<Row>`select * from ipam_vlan where id = any(${ids}::bigint[])`.execute(rc.q)).rows
    : [];
  const shown = new Map((await render(rc, vlanModel, stored, 'full')).map((r) => [Number(r.id), r as Represented]));
  const isLast = paging.offset + paging.perPage >= win.total;
  const lowest = win.ranges[0]?.start ?? 1n;
  const highest = win.ranges[win.ranges.length - 1]?.end ?? 4094n;
  const items = win.vlans.map((v) => ({ ...v, start: BigInt(v.vid), end: BigInt(v.vid) }));
  const placed = available.show
    ? withGaps(items, lowest, highest, win.before === null ? null : BigInt(win.before), isLast)
    : items.map((item) => ({ item }));
  const allowed = await can(rc, vlanModel);
  const row = (v: { id: number; vid: number }): Html => {
    const o = shown.get(v.id);
    if (!o) return html``;
    return html`<tr><td><a href="${objectPath(vlanModel, v.id)}">${v.vid}</a></td>${COLUMNS.map((k) => html`<td>${cell(k, o[k])}</td>`)}</tr>`;
  };
  const free = (gap: Interval): Html[] =>
    clipToSpans(gap, win.ranges).map((run) => {
      const n = run.end - run.start + 1n;
      const q = new URLSearchParams({ group: String(groupId), vid: run.start.toString(), return_url: request.url });
      const text = `${n} VLAN${n === 1n ? '' : 's'} available`;
      return html`<tr class="available" data-first="${run.start.toString()}" data-size="${n.toString()}"><td>${allowed.add ? html`<a href="${listPath(vlanModel)}add/?${q.toString()}">${run.start.toString()}</a>` : run.start.toString()}</td><td colspan="${COLUMNS.length}"><span class="badge tone-ok">Available</span> ${text}</td></tr>`;
    });
  const body = placed.map((p) => ('item' in p ? row(p.item) : free(p.gap)));
  const table = body.flat().length
    ? html`<div class="table-wrap"><table class="objects space">
<thead><tr><th scope="col">VID</th>${COLUMNS.map((k) => html`<th scope="col">${columnLabel(vlanModel, k)}</th>`)}</tr></thead>
<tbody>${body}</tbody></table></div>`
    : html`<p class="empty">No VLANs.</p>`;
  const add = new URLSearchParams({ group: String(groupId), return_url: path });
  return html`${spaceHead('VLANs', win.total, allowed.add ? html`<a class="button" href="${listPath(vlanModel)}add/?${add.toString()}">Add VLAN</a>` : '')}
<div class="space-tools">${availableToggle(path, query, available)}</div>
${noticeOf(available)}
${table}
${win.total ? spacePager(path, query, win.total, paging) : ''}`;
}
