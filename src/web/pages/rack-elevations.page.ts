/**
 * `/dcim/rack-elevations/`: many racks' elevations side by side (NetBox 3.4 RackElevationListView,
 * dcim/rack_elevation_list.html): the racks the rack list's REST filters select (`site_id`,
 * `location_id`, `q`, `status`, `role_id`, tenant...; core/crud/read.ts listObjects with the
 * request's context, so the user's view scope holds), one face of each (`face=front|rear`, front by
 * default), sorted by name or facility ID as NetBox offers, paginated, with the list's filter form
 * and chips. All the page's racks are drawn from three statements (object-views/rack-drawings.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import { Errors } from '../../core/errors.js';
import type { Face } from '../../apps/dcim/elevation/params.js';
import type { Represented } from '../components/cells.js';
import { filterChips, filterForm } from '../components/filter-form.js';
import { pager } from '../components/pager.js';
import { attrs, html } from '../html.js';
import { pageOfQuery } from '../model-pages/list.page.js';
import {
  can,
  hrefOf,
  modelCrumbs,
  objectPath,
  type Query,
  queryOf,
  sendErrorPage,
  sendModelPage,
} from '../model-pages/page-shell.js';
import { listPath, RACK_ELEVATIONS_PATH } from '../navigation/menu.js';
import { drawRacks, FACE_LABEL } from '../object-views/rack-drawings.js';

// NetBox 3.4 RackElevationListView ORDERING_CHOICES; anything else sorts by name
const SORTS: Record<string, string> = {
  name: 'Name (A-Z)',
  '-name': 'Name (Z-A)',
  facility_id: 'Facility ID (A-Z)',
  '-facility_id': 'Facility ID (Z-A)',
};
/** this page's own parameters, never rack filters */
const OWN = new Set(['face', 'sort', 'per_page', 'page']);

async function elevationsPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  // the pages read and write in NetBox 3.4's field names (model-pages/index.ts)
  rc.dialect = '3.4';
  rc.everyField = true;
  const model = ctx.registry.get('dcim.rack');
  const crumbs = modelCrumbs(model, { label: 'Elevations' });
  try {
    if (!(await can(rc, model)).view) throw Errors.permissionDenied();
    const query = queryOf(request);
    const face: Face = query.get('face')?.[0] === 'rear' ? 'rear' : 'front';
    const rawSort = query.get('sort')?.[0] ?? '';
    const sort = rawSort in SORTS ? rawSort : 'name';
    // `face` is this page's own: never a rack filter
    const { params, perPage, pageNo } = pageOfQuery(model, new Map([...query].filter(([k]) => k !== 'face')));
    params.set('ordering', [sort]);
    const list = (await listObjects(rc, model, params)) as { count: number; results: Represented[] };
    const here = hrefOf(RACK_ELEVATIONS_PATH, query);
    const drawings = await drawRacks(rc, list.results, [face], () => here);
    const with_ = (extra: Record<string, string>) => {
      const q = new Map(query);
      for (const [k, v] of Object.entries(extra)) q.set(k, [v]);
      return hrefOf(RACK_ELEVATIONS_PATH, q);
    };
    // the rack list with the same filters (NetBox's "View list")
    const filtersOnly: Query = new Map([...query].filter(([k]) => !OWN.has(k)));
    // chips name the filters; removing one keeps this page's face and sort
    const chipHref = (q: Query) => {
      const out = new Map(q);
      for (const k of ['face', 'sort', 'per_page']) if (query.has(k)) out.set(k, query.get(k)!);
      return hrefOf(RACK_ELEVATIONS_PATH, out);
    };
    const figures = list.results.map((rack) => {
      const facility = rack.facility_id ? String(rack.facility_id) : '';
      return html`<figure class="elevation">
  <figcaption><a href="${objectPath(model, rack.id)}">${String(rack.name ?? rack.id)}</a>${facility ? html`<span class="muted">${facility}</span>` : ''}</figcaption>
  ${drawings.get(Number(rack.id))?.get(face)}
</figure>`;
    });
    const body = html`<div class="page-head">
  <h1>Rack elevations <span class="count">${list.count.toLocaleString('en')}</span></h1>
  <div class="actions">
    <a class="button" href="${hrefOf(listPath(model), filtersOnly)}">View list</a>
    <nav class="face-switch" aria-label="Rack face">${(['front', 'rear'] as const).map(
      (f) =>
        html` <a class="button"${attrs({ 'aria-current': f === face ? 'true' : undefined })} href="${with_({ face: f, page: '1' })}">${FACE_LABEL[f]}</a>`,
    )}</nav>
    <details class="export-menu sort-menu"><summary class="button">Sort: ${SORTS[sort]}</summary><ul>${Object.entries(
      SORTS,
    ).map(
      ([k, label]) =>
        html`<li><a${attrs({ 'aria-current': k === sort ? 'true' : undefined })} href="${with_({ sort: k, page: '1' })}">${label}</a></li>`,
    )}</ul></details>
  </div>
</div>
${await filterForm(rc, model, query, RACK_ELEVATIONS_PATH, { keep: ['face', 'sort', 'per_page'] })}
${await filterChips(rc, model, new Map([...query].filter(([k]) => !OWN.has(k))), chipHref)}
${
  list.results.length
    ? html`<div class="elevations row">${figures}</div>`
    : html`<p class="muted">No racks match${query.size ? ' these filters' : ''}.</p>`
}
${pager(list.count, pageNo, perPage, with_)}`;
    return sendModelPage(request, reply, { title: 'Rack elevations', crumbs, body });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

export function registerRackElevationsPage(app: FastifyInstance, ctx: AppContext): void {
  // a static path, so it wins over the model pages' `/dcim/:models/`
  app.get(RACK_ELEVATIONS_PATH, { exposeHeadRoute: true }, (request, reply) => elevationsPage(ctx, request, reply));
}
