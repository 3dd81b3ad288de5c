/**
 * Physical topology, which NetBox does not draw: a site's devices (its Topology tab) or any
 * filtered set of devices (`/dcim/topology/?<the device list's filters>`), grouped by rack, with
 * their cables and wireless links as edges (topology-svg.ts says how it is laid out). Reads: the
 * devices through the device list (its filters and the user's view scope), in chunks, with only the
 * fields drawn; the roles' colours; the links between them in one statement
 * (apps/dcim/device-links.ts). Above TOPOLOGY_MAX devices it asks for a narrower filter instead.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, RequestContext } from '../../core/context.js';
import { hasPermission } from '../../core/auth/permissions.js';
import { countObjects, listObjects } from '../../core/crud/read.js';
import { listInChunks } from '../../core/crud/list-chunks.js';
import { Errors } from '../../core/errors.js';
import type { Params } from '../../core/query/filters.js';
import { deviceLinks } from '../../apps/dcim/device-links.js';
import type { Represented } from '../components/cells.js';
import { filterChips, isFilterParam } from '../components/filter-form.js';
import { html, type Html } from '../html.js';
import { hrefOf, modelCrumbs, queryOf, sendErrorPage, sendModelPage } from '../model-pages/page-shell.js';
import type { ObjectView } from './index.js';
import { type TopoDevice, topologySvg } from './topology-svg.js';

/** the most devices one drawing shows: past it a drawing stops being readable anyway */
const TOPOLOGY_MAX = 2000;

const nameOf = (v: unknown) =>
  v && typeof v === 'object' ? String((v as Represented).name ?? (v as Represented).display ?? '') : null;

/** the devices `params` selects, drawn with their links; or a message when there are none or too many */
async function topologyOf(rc: RequestContext, params: Params, title: string): Promise<Html> {
  const devices = rc.app.registry.get('dcim.device');
  const n = await countObjects(rc, devices, params);
  if (n === null) throw Errors.permissionDenied();
  if (n === 0) return html`<p class="empty">No devices to draw.</p>`;
  if (n > TOPOLOGY_MAX)
    return html`<p class="empty">${n.toLocaleString('en')} devices are more than one drawing can show (${TOPOLOGY_MAX.toLocaleString('en')}): narrow the filter, by location, rack or role.</p>`;
  // the fields drawn only (NetBox 4's `fields=`, so the read skips what a node does not show)
  const lean: RequestContext = { ...rc, dialect: '4.4' };
  const list = await listInChunks(
    lean,
    devices,
    new Map([...params, ['fields', ['id,name,display,rack,position,role']]]),
  );
  const rows: Represented[] = [];
  for await (const chunk of list.chunks()) rows.push(...chunk);
  const roleIds = [...new Set(rows.map((r) => Number((r.role as Represented | null)?.id ?? 0)).filter(Boolean))];
  const roles = rc.app.registry.find('dcim.devicerole');
  const colours = new Map<number, string>();
  // a user who may not see roles gets the neutral colour
  if (roles && roleIds.length && (await hasPermission(rc, roles, 'view')))
    for (const r of (
      await listObjects(
        rc,
        roles,
        new Map([
          ['id', roleIds.map(String)],
          ['limit', [String(roleIds.length)]],
        ]),
      )
    ).results as Represented[])
      colours.set(Number(r.id), String(r.color ?? ''));
  const drawn: TopoDevice[] = rows.map((r) => {
    const role = r.role as Represented | null;
    return {
      id: Number(r.id),
      name: String(r.name ?? r.display ?? r.id),
      rack: nameOf(r.rack),
      position: r.position == null ? null : Number(r.position),
      role: nameOf(role),
      color: role ? (colours.get(Number(role.id)) ?? null) : null,
    };
  });
  const links = await deviceLinks(
    rc,
    drawn.map((d) => d.id),
  );
  const cables = links.reduce((s, l) => s + l.count, 0);
  return html`<p class="muted">${drawn.length.toLocaleString('en')} devices, ${cables.toLocaleString('en')} cables and wireless links between them (${links.length.toLocaleString('en')} device pairs). Each device links to its page; hover an edge for its count.</p>
<figure class="topology">${topologySvg(drawn, links, title)}</figure>`;
}

export const SITE_TOPOLOGY_VIEW: ObjectView = {
  tabs: [
    {
      slug: 'topology',
      label: 'Topology',
      count: async (_rc, obj) => (Number(obj.device_count ?? 0) > 0 ? 0 : null),
      render: ({ request, obj }) =>
        topologyOf(
          request.rc,
          new Map([['site_id', [String(obj.id)]]]),
          `Topology of ${String(obj.display ?? obj.id)}`,
        ),
    },
  ],
};

/** `/dcim/topology/`: the drawing of the devices the device list's filters in the URL select */
export function registerTopologyPage(app: FastifyInstance, ctx: AppContext): void {
  const devices = ctx.registry.find('dcim.device');
  if (!devices) return;
  app.get('/dcim/topology/', async (request: FastifyRequest, reply: FastifyReply) => {
    const rc = request.rc;
    rc.dialect = '3.4';
    const crumbs = modelCrumbs(devices, { label: 'Topology' });
    try {
      const query = queryOf(request);
      const params: Params = new Map([...query].filter(([k]) => isFilterParam(k)));
      const body = html`<h1>Topology</h1>
<p>Devices as the <a href="${hrefOf('/dcim/devices/', params)}">device list</a> selects them with the same filters (<code>?site_id=</code>, <code>role_id</code>, <code>rack_id</code>, <code>q</code>...).</p>
${await filterChips(rc, devices, query, (q) => hrefOf('/dcim/topology/', q))}
${params.size ? await topologyOf(rc, params, 'Topology of the selected devices') : html`<p class="empty">Choose devices with the device list's filters, for example <a href="/dcim/topology/?site_id=1">?site_id=1</a>.</p>`}`;
      return sendModelPage(request, reply, { title: 'Topology', crumbs, body });
    } catch (err) {
      return sendErrorPage(request, reply, err, crumbs);
    }
  });
}
