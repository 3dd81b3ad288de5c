/**
 * The path routes (reference 1.3): `…/<id>/trace/` of every path endpoint kind, `…/<id>/paths/`
 * of front ports, rear ports and circuit terminations, and `/api/dcim/connected-device/`. Each
 * answers with the view permission of the object it reads, within its constraints (a 404
 * otherwise), as the detail route does. A kind not registered gets no route.
 */
import { parseId } from '../../../core/crud/routes.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../../core/auth/permissions.js';
import type { AppContext, RequestContext } from '../../../core/context.js';
import { fetchOne, getObject } from '../../../core/crud/read.js';
import { Errors } from '../../../core/errors.js';
import { type Dialect, servedIn } from '../../../core/model/dialect.js';
import type { ModelDef, Row } from '../../../core/model/types.js';
import type { RouteDoc } from '../../../core/openapi/types.js';
import { destinationsOf, loadPaths } from './connected.js';
import { nodeOf } from './nodes.js';
import { pathsThrough, traceOf } from './trace.js';

/** [url of the list, model identity] */
const TRACED: Array<[string, string]> = [
  ['/api/dcim/interfaces', 'dcim.interface'],
  ['/api/dcim/console-ports', 'dcim.consoleport'],
  ['/api/dcim/console-server-ports', 'dcim.consoleserverport'],
  ['/api/dcim/power-ports', 'dcim.powerport'],
  ['/api/dcim/power-outlets', 'dcim.poweroutlet'],
  ['/api/dcim/power-feeds', 'dcim.powerfeed'],
];
/** [url of the list, model identity, the one dialect serving it] */
const PASS_THROUGH: Array<[string, string, Dialect?]> = [
  ['/api/dcim/front-ports', 'dcim.frontport'],
  ['/api/dcim/rear-ports', 'dcim.rearport'],
  ['/api/circuits/circuit-terminations', 'circuits.circuittermination'],
  // NetBox 4.2: a virtual circuit termination is a pass-through port too (no cable path crosses
  // one yet, so its list is empty; clients such as pynetbox 7.5+ still ask)
  ['/api/circuits/virtual-circuit-terminations', 'circuits.virtualcircuittermination', '4.4'],
];

type Params = { Params: { id: string } };

function objectRoute(
  app: FastifyInstance,
  model: ModelDef,
  url: string,
  answer: (rc: RequestContext, row: Row) => Promise<unknown>,
): void {
  app.route<Params>({
    method: ['GET', 'HEAD'],
    url,
    handler: async (request) => {
      const rc = request.rc;
      // a model of another dialect only is not there (crud/routes.ts)
      if (!servedIn(model, rc.dialect)) throw Errors.notFound();
      const row = await fetchOne(rc, model, parseId(request.params.id), await requirePermission(rc, model, 'view'));
      return answer(rc, row);
    },
  });
}

const MISSING = 'Request must include "peer_device" and "peer_interface" filters.';

export function registerPathRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const [list, type] of TRACED) {
    const model = ctx.registry.find(type);
    if (model) objectRoute(app, model, `${list}/:id/trace/`, (rc, row) => traceOf(rc, row));
  }
  for (const [list, type] of PASS_THROUGH) {
    const model = ctx.registry.find(type);
    if (model) objectRoute(app, model, `${list}/:id/paths/`, (rc, row) => pathsThrough(rc, nodeOf(type, row.id)));
  }
  // NetBox 3.4 ConnectedDeviceViewSet: the device at the far end of a named device's interface
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/dcim/connected-device/',
    handler: async (request) => {
      const rc = request.rc;
      const q = request.query as Record<string, unknown>;
      const first = (v: unknown) => (Array.isArray(v) ? v[0] : v) as string | undefined;
      const [deviceName, ifaceName] = [first(q.peer_device), first(q.peer_interface)];
      if (!deviceName || !ifaceName) throw Errors.badRequest(MISSING);
      const devices = ctx.registry.get('dcim.device');
      const ifaces = ctx.registry.get('dcim.interface');
      const deviceScope = await requirePermission(rc, devices, 'view');
      const ifaceScope = await requirePermission(rc, ifaces, 'view');
      const scoped = (scope: unknown) => (scope ? sql`and ${scope}` : sql``);
      const named =
        await sql<Row>`select t.id from dcim_device as t where t.name = ${deviceName} ${scoped(deviceScope)}`.execute(
          rc.q,
        );
      const peer =
        await sql<Row>`select t._path_id from dcim_interface as t where t.device_id = any(${named.rows.map((r) => Number(r.id))}::bigint[])
        and t.name = ${ifaceName} ${scoped(ifaceScope)} order by t.id limit 1`.execute(rc.q);
      if (!peer.rows.length) throw Errors.notFound();
      const pathId = peer.rows[0]!._path_id == null ? null : Number(peer.rows[0]!._path_id);
      const ends = pathId === null ? [] : destinationsOf((await loadPaths(rc, [pathId])).get(pathId));
      if (ends[0]?.type !== 'dcim.interface') throw Errors.notFound();
      const local = await sql<Row>`select device_id from dcim_interface where id = ${ends[0].id}`.execute(rc.q);
      // the full device, without config_context (NetBox renders DeviceSerializer here)
      return getObject(rc, devices, Number(local.rows[0]!.device_id), new Map([['exclude', ['config_context']]]));
    },
  });
}

const DETAIL = { $ref: '#/components/schemas/Detail' };
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const NESTED_ANY = {
  type: 'object',
  additionalProperties: true,
  required: ['id', 'url'],
  properties: { id: { type: 'integer' }, url: { type: 'string' } },
};
const TRACED_CABLE = {
  type: 'object',
  nullable: true,
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    type: { type: 'string' },
    status: { type: 'string' },
    label: { type: 'string' },
    color: { type: 'string' },
    length: { type: 'number', nullable: true },
    length_unit: { type: 'string', nullable: true },
    description: { type: 'string' },
  },
};
const HOP = { type: 'array', items: NESTED_ANY };
const TRACE = {
  type: 'array',
  items: { type: 'array', minItems: 3, maxItems: 3, items: { anyOf: [HOP, TRACED_CABLE] } },
};
const CABLE_PATH = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    path: { type: 'array', items: HOP },
    is_active: { type: 'boolean' },
    is_complete: { type: 'boolean' },
    is_split: { type: 'boolean' },
  },
  required: ['id', 'path', 'is_active', 'is_complete', 'is_split'],
};

const opId = (list: string, action: string) =>
  `${list.split('/').slice(2).join('_').replace(/-/g, '_')}_${action}_retrieve`;

/** The path routes in the OpenAPI document, for the kinds among `models` (and circuit terminations). */
export function pathRouteDocs(models: ReadonlyArray<ModelDef>): RouteDoc[] {
  const has = (type: string) => type.startsWith('circuits.') || models.some((m) => m.name === type);
  const docs: RouteDoc[] = [];
  for (const [list] of TRACED.filter(([, t]) => has(t))) {
    docs.push({
      path: `${list}/{id}/trace/`,
      method: 'get',
      operationId: opId(list, 'trace'),
      tag: 'dcim',
      summary: 'Trace the cable path from this endpoint: [near ends, cable, far ends] per hop',
      parameters: [ID],
      responses: { 200: TRACE, 403: DETAIL, 404: DETAIL },
    });
  }
  for (const [list, , dialect] of PASS_THROUGH.filter(([, t]) => has(t))) {
    docs.push({
      dialect,
      path: `${list}/{id}/paths/`,
      method: 'get',
      operationId: opId(list, 'paths'),
      tag: list.split('/')[2]!,
      summary: 'The cable paths passing through this object',
      parameters: [ID],
      responses: { 200: { type: 'array', items: CABLE_PATH }, 403: DETAIL, 404: DETAIL },
    });
  }
  docs.push({
    path: '/api/dcim/connected-device/',
    method: 'get',
    operationId: 'dcim_connected_device_list',
    tag: 'dcim',
    summary: 'The device at the far end of the named device interface (LLDP-style lookup)',
    parameters: [
      { name: 'peer_device', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'peer_interface', in: 'query', required: true, schema: { type: 'string' } },
    ],
    responses: { 200: { $model: 'dcim.device', form: 'full' }, 400: DETAIL, 403: DETAIL, 404: DETAIL },
  });
  return docs;
}
