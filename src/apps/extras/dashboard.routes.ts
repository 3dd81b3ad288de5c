/**
 * `/api/extras/dashboard/` (NetBox 3.6 DashboardView): the caller's own dashboard, `layout` and
 * `config`. GET answers it; PUT and PATCH replace the keys they send (each wholesale, as NetBox's
 * serializer does); DELETE removes it (204), after which the user starts again from the default.
 *
 * A user without one gets the default dashboard, stored on first read (dashboard-store.ts, shared
 * with the web dashboard at `/`; NetBox's API answers nulls then, and fails on a write). Anonymous
 * callers are refused (403, NetBox's answer). NetBox 3.7 also asks for `extras.*_dashboard` model
 * permissions; the dashboard is not a model here, and each user may
 * read and write their own, as its web UI lets them. A read-only token only reads (http/).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { isPlainObject, typeName } from '../../core/crud/parse-field.js';
import { Errors } from '../../core/errors.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import type { DashboardData } from './dashboard-default.js';
import { dashboardOf, deleteDashboard, saveDashboard } from './dashboard-store.js';

const DASHBOARD_PATH = '/api/extras/dashboard/';
const ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

function ownerOf(rc: RequestContext): number {
  if (!rc.user) throw Errors.notAuthenticated();
  return rc.user.id;
}

/** NetBox's model: `layout` a list (of grid items), `config` an object (widgets by id). */
function parseBody(body: unknown): Partial<DashboardData> {
  if (body === undefined || body === null) throw Errors.validation({ non_field_errors: ['No data provided'] });
  if (!isPlainObject(body))
    throw Errors.validation({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(body)}.`] });
  const errors: Record<string, string[]> = {};
  const out: Partial<DashboardData> = {};
  if ('layout' in body) {
    if (!Array.isArray(body.layout) || !body.layout.every(isPlainObject))
      errors.layout = ['The layout must be a list of objects (grid items).'];
    else out.layout = body.layout;
  }
  if ('config' in body) {
    if (!isPlainObject(body.config)) errors.config = ['The config must be an object (widgets by id).'];
    else out.config = body.config;
  }
  if (Object.keys(errors).length) throw Errors.validation(errors);
  return out;
}

export function registerDashboardRoutes(app: FastifyInstance): void {
  const config = { allow: ALLOW };
  app.get(DASHBOARD_PATH, { exposeHeadRoute: true, config }, async (request) => {
    const rc = request.rc;
    const userId = ownerOf(rc);
    return inTransaction(rc, (trx) => dashboardOf(trx, userId));
  });
  const replace = async (request: FastifyRequest) => {
    const rc = request.rc;
    const userId = ownerOf(rc);
    const sent = parseBody(request.body);
    return inTransaction(rc, async (trx) => {
      const current = await dashboardOf(trx, userId, true);
      const next = { ...current, ...sent };
      await saveDashboard(trx, userId, next);
      return next;
    });
  };
  // DRF's OPTIONS metadata: the view's name and what it renders and parses
  app.options(DASHBOARD_PATH, { config }, async (request) => {
    ownerOf(request.rc);
    return {
      name: 'Dashboard',
      description: '',
      renders: ['application/json', 'text/html'],
      parses: ['application/json'],
    };
  });
  app.put(DASHBOARD_PATH, { config }, replace);
  app.patch(DASHBOARD_PATH, { config }, replace);
  app.delete(DASHBOARD_PATH, { config }, async (request: FastifyRequest, reply: FastifyReply) => {
    const rc = request.rc;
    const userId = ownerOf(rc);
    await inTransaction(rc, (trx) => deleteDashboard(trx, userId));
    return reply.code(204).send();
  });
}

const DETAIL = { $ref: '#/components/schemas/Detail' };
const DASHBOARD = {
  type: 'object',
  properties: {
    layout: { type: 'array', items: { type: 'object', additionalProperties: true } },
    config: { type: 'object', additionalProperties: true },
  },
};
const doc = (
  method: RouteDoc['method'],
  action: string,
  summary: string,
  ok: Record<string, unknown> | null,
  body = false,
): RouteDoc => ({
  path: '/api/extras/dashboard/',
  method,
  operationId: `extras_dashboard_${action}`,
  tag: 'extras',
  summary,
  ...(body ? { requestBody: DASHBOARD } : {}),
  responses: { [ok ? 200 : 204]: ok, 400: DETAIL, 403: DETAIL },
});

export const DASHBOARD_DOCS: RouteDoc[] = [
  doc('get', 'retrieve', "The caller's dashboard (the default one until they change it).", DASHBOARD),
  doc('put', 'update', "Replace the caller's dashboard layout and/or config.", DASHBOARD, true),
  doc('patch', 'partial_update', "Replace the caller's dashboard layout and/or config.", DASHBOARD, true),
  doc('delete', 'destroy', "Delete the caller's dashboard (the default one applies again).", null),
];
