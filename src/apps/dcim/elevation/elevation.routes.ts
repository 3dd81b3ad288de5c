/**
 * `GET /api/dcim/racks/<id>/elevation/` (reference 1.3; NetBox 3.4 RackViewSet.elevation): the
 * rack units of one face as a paginated list, or with `render=svg` a drawing of that face. The rack
 * is found as its detail view finds it (view permission and its constraints, else 404); devices the
 * user may not view occupy their units without being named or drawn.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../../../core/auth/permissions.js';
import type { AppContext, RequestContext } from '../../../core/context.js';
import { reservationsOf, visibleDeviceIds } from './rack-contents.js';
import { fetchOne } from '../../../core/crud/read.js';
import { parseId, queryParams, READ_METHODS } from '../../../core/crud/routes.js';
import type { Row } from '../../../core/model/types.js';
import type { RouteDoc } from '../../../core/openapi/types.js';
import { pageLinks, parsePage } from '../../../core/query/pagination.js';
import { render, renderChoice } from '../../../core/represent/render.js';
import { pageUrl } from '../../../core/urls.js';
import { addDeviceUrl } from './add-device-url.js';
import { type ElevationParams, parseElevationParams, DEFAULTS } from './params.js';
import { renderElevationSvg } from './svg.js';
import { layUnits, mountedDevices, type RackUnit } from './units.js';

const URL = '/api/dcim/racks/:id/elevation/';

const idOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** NetBox's unit search: `q` is contained in the unit number ("42.0", "42.5") or its name */
function matchesQ(unit: RackUnit, q: string): boolean {
  return unit.id.toFixed(1).includes(q) || unit.name.includes(q);
}

async function unitPage(
  rc: RequestContext,
  rack: Row,
  p: ElevationParams,
  params: Map<string, string[]>,
  visible: Set<number> | null,
) {
  const deviceModel = rc.app.registry.get('dcim.device');
  const devices = await mountedDevices(rc, [Number(rack.id)], p.face, p.exclude, visible);
  let units = layUnits(
    {
      u_height: Number(rack.u_height),
      desc_units: Boolean(rack.desc_units),
      starting_unit: Number(rack.starting_unit ?? 1),
    },
    p.face,
    devices,
    p.expandDevices,
  );
  if (p.q !== null) units = units.filter((u) => matchesQ(u, p.q!));
  const page = parsePage(rc.app.config, params);
  const slice = page.limit === null ? units.slice(page.offset) : units.slice(page.offset, page.offset + page.limit);
  // the nested devices of this page, rendered once each
  const ids = [...new Set(slice.flatMap((u) => (u.device ? [u.device.id] : [])))];
  const rows = ids.length
    ? (await sql<Row>`select * from dcim_device where id = any(${ids}::bigint[])`.execute(rc.q)).rows
    : [];
  const nested = await render(rc, deviceModel, rows, 'nested');
  const byId = new Map(nested.map((n) => [Number(n.id), n]));
  const face = renderChoice(deviceModel.fields.face!, p.face);
  const results = slice.map((u) => ({
    id: u.id,
    name: u.name,
    face,
    device: u.device ? (byId.get(u.device.id) ?? null) : null,
    occupied: u.occupied,
    display: u.name,
  }));
  const url = `${rc.baseUrl}/api/dcim/racks/${rack.id}/elevation/`;
  return { count: units.length, ...pageLinks(url, params, page, units.length), results };
}

export function registerElevationRoute(app: FastifyInstance, ctx: AppContext): void {
  const rackModel = ctx.registry.get('dcim.rack');
  const deviceModel = ctx.registry.get('dcim.device');
  const reservationModel = ctx.registry.get('dcim.rackreservation');
  app.route<{ Params: { id: string } }>({
    method: ['GET', 'HEAD', 'OPTIONS'],
    url: URL,
    config: { allow: READ_METHODS },
    handler: async (request, reply) => {
      const rc = request.rc;
      if (request.method === 'OPTIONS') {
        return {
          name: 'Rack Elevation',
          description: 'The rack units of one face, or a drawing of it.',
          renders: ['application/json', 'image/svg+xml'],
          parses: ['application/json'],
        };
      }
      const rack = await fetchOne(
        rc,
        rackModel,
        parseId(request.params.id),
        await requirePermission(rc, rackModel, 'view'),
      );
      const params = queryParams(request);
      const p = parseElevationParams(params);
      const visible = await visibleDeviceIds(rc, [Number(rack.id)]);
      if (p.render === 'json') return unitPage(rc, rack, p, params, visible);
      // the drawing shows every device of the face (NetBox 3.4 ignores `exclude` and `q` here); its
      // links go to the web pages, as NetBox's do: devices, reservations, and empty units to the
      // add-device form for a user who may add devices
      const rackId = Number(rack.id);
      const place = { id: rackId, site: idOrNull(rack.site_id), location: idOrNull(rack.location_id) };
      const addUrl = addDeviceUrl(place, p.face);
      const svg = renderElevationSvg(
        {
          rack: {
            u_height: Number(rack.u_height),
            desc_units: Boolean(rack.desc_units),
            starting_unit: Number(rack.starting_unit ?? 1),
          },
          face: p.face,
          devices: await mountedDevices(rc, [rackId], p.face, null, visible),
          reservations:
            (await reservationsOf(rc, [rackId], (id) => pageUrl(rc.baseUrl, reservationModel, id))).get(rackId) ?? [],
          deviceUrl: (id) => pageUrl(rc.baseUrl, deviceModel, id),
          addUrl: (await hasPermission(rc, deviceModel, 'add')) ? (unit) => `${rc.baseUrl}${addUrl(unit)}` : undefined,
        },
        p,
      );
      // opened on its own, the drawing runs nothing: its text is escaped, and this forbids scripts anyway
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  });
}

const intParam = (name: string, description: string, dflt?: number) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'integer', minimum: 0, ...(dflt === undefined ? {} : { default: dflt }) },
});

const UNIT_SHAPE = {
  type: 'object',
  properties: {
    id: { type: 'number' },
    name: { type: 'string' },
    face: {
      type: 'object',
      properties: { value: { type: 'string', enum: ['front', 'rear'] }, label: { type: 'string' } },
      required: ['value', 'label'],
    },
    device: { $model: 'dcim.device', nullable: true },
    occupied: { type: 'boolean' },
    display: { type: 'string' },
  },
  required: ['id', 'name', 'face', 'device', 'occupied', 'display'],
  additionalProperties: false,
};

/** The route in the OpenAPI document (NetBox's operationId: dcim_racks_elevation_list). */
export const ELEVATION_DOCS: RouteDoc[] = [
  {
    path: '/api/dcim/racks/{id}/elevation/',
    method: 'get',
    operationId: 'dcim_racks_elevation_list',
    tag: 'dcim',
    summary: 'The rack units of one face (paginated), or with render=svg an SVG drawing of that face',
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
      {
        name: 'face',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['front', 'rear'], default: 'front' },
      },
      {
        name: 'render',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['json', 'svg'], default: 'json' },
      },
      {
        name: 'q',
        in: 'query',
        required: false,
        description: 'unit number or name contains',
        schema: { type: 'string' },
      },
      intParam('exclude', 'a device to leave out (when moving it within the rack)'),
      { name: 'expand_devices', in: 'query', required: false, schema: { type: 'boolean', default: true } },
      { name: 'include_images', in: 'query', required: false, schema: { type: 'boolean', default: true } },
      intParam('unit_width', 'SVG: width of a unit, in pixels', DEFAULTS.unitWidth),
      intParam('unit_height', 'SVG: height of a unit, in pixels', DEFAULTS.unitHeight),
      intParam('legend_width', 'SVG: width of the unit legend, in pixels', DEFAULTS.legendWidth),
      intParam('margin_width', 'SVG: width of the reservation margin, in pixels', DEFAULTS.marginWidth),
      intParam('limit', 'page size'),
      intParam('offset', 'units skipped'),
    ],
    responses: {
      200: {
        type: 'object',
        properties: {
          count: { type: 'integer' },
          next: { type: 'string', format: 'uri', nullable: true },
          previous: { type: 'string', format: 'uri', nullable: true },
          results: { type: 'array', items: UNIT_SHAPE },
        },
        required: ['count', 'next', 'previous', 'results'],
        additionalProperties: false,
      },
      400: { $ref: '#/components/schemas/ValidationError' },
      403: { $ref: '#/components/schemas/Detail' },
      404: { $ref: '#/components/schemas/Detail' },
    },
    alsoProduces: { 'image/svg+xml': { type: 'string' } },
  },
];
