/**
 * A prefix's Child ranges tab (`ip-ranges/`): the IP ranges wholly inside it in its VRF (NetBox 3.4
 * Prefix.get_child_ranges, PrefixIPRangesView), read as the range list reads them (the REST
 * `parent` and `vrf_id` filters, the user's view scope), in address order, paged.
 */
import { countObjects, listObjects } from '../../core/crud/read.js';
import type { Row } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import { objectTable, type TableOptions } from '../components/object-table.js';
import { html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath, type Query, queryOf } from '../model-pages/page-shell.js';
import { uiOf } from '../model-ui.js';
import type { ObjectTab } from './index.js';
import { pagingOf, spaceHead, spacePager } from './space-page.js';

/** the list filters that name a prefix's child ranges */
function filtersOf(obj: Represented): Query {
  const vrf = (obj.vrf as Row | null)?.id;
  return new Map([
    ['parent', [String(obj.prefix)]],
    ['vrf_id', [vrf === undefined || vrf === null ? 'null' : String(vrf)]],
  ]);
}

export const prefixRangesTab: ObjectTab = {
  slug: 'ip-ranges',
  label: 'Child ranges',
  async count(rc, obj) {
    const n = await countObjects(rc, rc.app.registry.get('ipam.iprange'), filtersOf(obj));
    return n === null ? null : n;
  },
  async render({ request, model, obj }) {
    const rc = request.rc;
    const target = rc.app.registry.get('ipam.iprange');
    const path = `${objectPath(model, obj.id)}ip-ranges/`;
    const query = queryOf(request);
    const paging = pagingOf(query);
    const params = filtersOf(obj);
    params.set('limit', [String(paging.perPage)]);
    params.set('offset', [String(paging.offset)]);
    params.set('ordering', ['start_address']);
    const list = (await listObjects(rc, target, params)) as { count: number; results: TableOptions['rows'] };
    const allowed = await can(rc, target);
    const add = new URLSearchParams({ return_url: path });
    const vrf = (obj.vrf as Row | null)?.id;
    if (vrf !== undefined && vrf !== null) add.set('vrf', String(vrf));
    return html`${spaceHead('Child ranges', list.count, allowed.add ? html`<a class="button" href="${listPath(target)}add/?${add.toString()}">Add IP range</a>` : '')}
${objectTable({
  model: target,
  rows: list.results,
  columns: uiOf(rc.app.registry, target).columns,
  sortable: new Set(),
  sort: '',
  sortHref: () => path,
  href: (row) => objectPath(target, row.id),
})}
${list.count ? spacePager(path, query, list.count, paging) : ''}`;
  },
};
