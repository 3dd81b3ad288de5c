/**
 * `/api/core/background-queues/`, `background-tasks/` (filterable by queue and status),
 * `background-tasks/<id>/`, `background-tasks/<id>/requeue/` and `background-workers/`, in the
 * shapes NetBox 4 gives its background tasks (core/events/tasks.ts). Like NetBox's, for staff
 * users only (superusers included), with a token or a signed-in session.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, RequestContext } from '../../core/context.js';
import { parseId, queryParams } from '../../core/crud/routes.js';
import { Errors } from '../../core/errors.js';
import { getTask, listTasks, listWorkers, queueStats, requeueTask } from '../../core/events/tasks.js';
import type { Shape } from '../../core/model/types.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { pageLinks, parsePage } from '../../core/query/pagination.js';

const BASE = '/api/core';
/** listed in the core app's root besides its models (apps/core/index.ts) */
export const CORE_ENDPOINTS = ['background-queues', 'background-tasks', 'background-workers'];

function staffOnly(rc: RequestContext): void {
  if (!rc.user) throw Errors.notAuthenticated();
  if (!rc.user.is_staff && !rc.user.is_superuser) throw Errors.permissionDenied();
}

/** a list without pagination parameters of its own: everything, in NetBox's envelope */
function envelope<T>(results: T[]) {
  return { count: results.length, next: null, previous: null, results };
}

export function registerBackgroundTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { exposeHeadRoute: true } as const;
  // `/api/core/` itself is the generic app root (http/root.routes.ts), which lists these endpoints
  app.get(`${BASE}/background-queues/`, read, async (request) => {
    staffOnly(request.rc);
    return envelope(await queueStats(request.rc));
  });
  app.get(`${BASE}/background-workers/`, read, async (request) => {
    staffOnly(request.rc);
    return envelope(await listWorkers(request.rc));
  });
  app.get(`${BASE}/background-tasks/`, read, async (request: FastifyRequest) => {
    const rc = request.rc;
    staffOnly(rc);
    const params = queryParams(request);
    for (const name of params.keys()) {
      if (!['queue', 'status', 'limit', 'offset', 'format'].includes(name))
        throw Errors.invalidFilter(name, 'Unknown filter.');
    }
    const page = parsePage(ctx.config, params);
    const list = await listTasks(rc, {
      queue: params.get('queue')?.[0],
      status: params.get('status')?.[0],
      limit: page.limit ?? 1_000_000,
      offset: page.offset,
    });
    return {
      count: list.count,
      ...pageLinks(`${rc.baseUrl}${BASE}/background-tasks/`, params, page, list.count),
      results: list.results,
    };
  });
  app.get<{ Params: { id: string } }>(`${BASE}/background-tasks/:id/`, read, async (request) => {
    staffOnly(request.rc);
    return getTask(request.rc, parseId(request.params.id));
  });
  app.post<{ Params: { id: string } }>(
    `${BASE}/background-tasks/:id/requeue/`,
    { config: { allow: 'POST, OPTIONS' } },
    async (request) => {
      staffOnly(request.rc);
      return requeueTask(request.rc, parseId(request.params.id));
    },
  );
}

const DETAIL = { $ref: '#/components/schemas/Detail' };
const OBJ = { type: 'object', additionalProperties: true };
const LIST = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    next: { type: 'string', nullable: true },
    previous: { type: 'string', nullable: true },
    results: { type: 'array', items: OBJ },
  },
};
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const doc = (path: string, method: 'get' | 'post', operationId: string, summary: string, ok: Shape): RouteDoc => ({
  path,
  method,
  operationId,
  tag: 'core',
  summary,
  responses: { 200: ok, 403: DETAIL },
  ...(path.includes('{id}') ? { parameters: [ID] } : {}),
});

/** The routes above in the OpenAPI document. */
export const BACKGROUND_TASK_DOCS: RouteDoc[] = [
  doc(
    `${BASE}/background-queues/`,
    'get',
    'core_background_queues_list',
    'Webhook delivery queues with their counts (NetBox 4 shape)',
    LIST,
  ),
  doc(
    `${BASE}/background-tasks/`,
    'get',
    'core_background_tasks_list',
    'Webhook deliveries as background tasks; ?queue= and ?status= filter',
    LIST,
  ),
  doc(
    `${BASE}/background-tasks/{id}/`,
    'get',
    'core_background_tasks_retrieve',
    'One delivery: request, response, error log',
    OBJ,
  ),
  doc(
    `${BASE}/background-tasks/{id}/requeue/`,
    'post',
    'core_background_tasks_requeue_create',
    'Send a failed delivery again',
    OBJ,
  ),
  doc(`${BASE}/background-workers/`, 'get', 'core_background_workers_list', 'Webhook workers alive', LIST),
];
