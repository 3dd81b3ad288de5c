/**
 * Cable trace (`/dcim/interfaces/<id>/trace/` and every cabled kind's): the stored path read as the
 * REST `…/trace/` reads it (apps/dcim/paths/trace.ts `traceOf`, so both always agree), drawn as
 * an SVG (trace-svg.ts) beside the same hops as a table. A front port, rear port or circuit
 * termination is not an end of a path: its tab lists every path through it (the REST `…/paths/`),
 * each with a link to the trace from its origin. NetBox: the Trace button of a cabled component.
 */
import { requirePermission } from '../../core/auth/permissions.js';
import { fetchOne } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { CIRCUIT_TERMINATION, FRONT_PORT, nodeOf, PATH_ENDPOINTS, REAR_PORT } from '../../apps/dcim/paths/nodes.js';
import { pathsThrough, traceOf } from '../../apps/dcim/paths/trace.js';
import { cell, objectHref, type Represented } from '../components/cells.js';
import { panel } from '../components/panels.js';
import { html, type Html } from '../html.js';
import type { ObjectTab, ObjectView, ViewInput } from './index.js';
import { type Hop, traceSvg } from './trace-svg.js';

export const TRACE_SLUG = 'trace';

/** the ends of paths (NetBox 3.4 PathEndpoint, apps/dcim/paths/nodes.ts) and what paths pass through */
const ENDPOINTS = [...PATH_ENDPOINTS];
const PASS_THROUGH = [FRONT_PORT, REAR_PORT, CIRCUIT_TERMINATION];

/** whether `model`'s objects have a trace tab */
export function traceable(model: ModelDef): boolean {
  return ENDPOINTS.includes(model.name) || PASS_THROUGH.includes(model.name);
}

const traceTab: ObjectTab = {
  slug: TRACE_SLUG,
  label: 'Trace',
  // shown (without a badge) once the object is cabled or has a wireless link
  count: async (_rc, obj) => (obj.cable || obj.wireless_link ? 0 : null),
  render: renderTrace,
};

export const TRACE_VIEWS: Record<string, ObjectView> = Object.fromEntries(
  [...ENDPOINTS, ...PASS_THROUGH].map((name) => [name, { tabs: [traceTab] }]),
);

async function renderTrace({ request, model, obj }: ViewInput): Promise<Html> {
  const rc = request.rc;
  if (PASS_THROUGH.includes(model.name))
    return pathsPanel(model, obj, await pathsThrough(rc, nodeOf(model.name, obj.id)));
  const row = await fetchOne(rc, model, Number(obj.id), await requirePermission(rc, model, 'view'));
  const hops = (await traceOf(rc, row)) as Hop[];
  if (!hops.length)
    return html`<p class="empty">${String(obj.display ?? obj.id)} is not connected: there is nothing to trace.</p>`;
  return html`<div class="trace">
  <figure class="trace-drawing">${traceSvg(hops, `Cable trace of ${String(obj.display ?? obj.id)}`)}</figure>
  ${panel('Hops', hopTable(hops))}
</div>`;
}

/** the hops as a table: near ends, the cable or wireless link, far ends */
function hopTable(hops: Hop[]): Html {
  return html`<div class="table-wrap"><table class="objects">
<thead><tr><th scope="col">#</th><th scope="col">Near end</th><th scope="col">Link</th><th scope="col">Far end</th></tr></thead>
<tbody>${hops.map(
    ([near, link, far], i) =>
      html`<tr><td>${i + 1}</td><td>${cell('link_peers', near)}</td><td>${linkCell(link)}</td><td>${cell('link_peers', far)}</td></tr>`,
  )}</tbody></table></div>`;
}

function linkCell(link: Represented | null): Html {
  if (!link) return html`<span class="muted">none</span>`;
  const href = objectHref(link.url);
  const name =
    link.ssid !== undefined
      ? `Wireless link ${String(link.ssid || link.id)}`
      : String(link.label || `Cable #${link.id}`);
  const length = link.length != null ? ` · ${String(link.length)} ${String(link.length_unit ?? '')}` : '';
  return html`${href ? html`<a href="${href}">${name}</a>` : name} ${cell('status', link.status)}${link.type ? ` · ${String(link.type)}` : ''}${length}`;
}

/** a pass-through port's paths: each path's origin and destination, with its trace */
function pathsPanel(model: ModelDef, obj: Represented, paths: Array<Record<string, unknown>>): Html {
  if (!paths.length) return html`<p class="empty">No cable path passes through ${String(obj.display ?? obj.id)}.</p>`;
  return panel(
    `Paths through this ${model.verboseName}`,
    html`<div class="table-wrap"><table class="objects">
<thead><tr><th scope="col">Origin</th><th scope="col">Destination</th><th scope="col">Hops</th><th scope="col">Complete</th><th scope="col"><span class="sr-only">Trace</span></th></tr></thead>
<tbody>${paths.map((p) => {
      const hops = (p.path as Represented[][]) ?? [];
      const origin = hops[0] ?? [];
      const last = hops[hops.length - 1] ?? [];
      const first = origin[0];
      const href = first ? objectHref(first.url) : null;
      return html`<tr><td>${cell('link_peers', origin)}</td><td>${cell('link_peers', hops.length > 1 ? last : [])}</td><td>${Math.ceil(hops.length / 3)}</td><td>${cell('is_complete', p.is_complete === true)}</td><td>${href ? html`<a class="button small" href="${href}${TRACE_SLUG}/">Trace</a>` : ''}</td></tr>`;
    })}</tbody></table></div>`,
  );
}
