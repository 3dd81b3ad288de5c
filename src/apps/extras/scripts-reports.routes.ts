/**
 * `/api/extras/reports/` and `/api/extras/scripts/` (NetBox 3.7 ReportViewSet, ScriptViewSet).
 * NetBox's reports and scripts are Python modules uploaded by users and run by its RQ workers;
 * this service runs no user code of that kind, so it has none: the lists are honestly empty, a
 * report or script is not found, and running one is a 400 that says why. NetBox answers the lists
 * as `{count, results}`; the usual next/previous (null) come along, as on every other list.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { RouteDoc } from '../../core/openapi/types.js';

export const SCRIPT_ENDPOINTS = ['reports', 'scripts'];

const NOT_SUPPORTED = {
  reports:
    'Custom reports are not supported: this service does not run user Python modules (NetBox reports and scripts).',
  scripts:
    'Custom scripts are not supported: this service does not run user Python modules (NetBox reports and scripts).',
};

type Kind = keyof typeof NOT_SUPPORTED;

function refuseRun(request: FastifyRequest, kind: Kind): never {
  // NetBox 3.7 checks extras.run_report / run_script first: an anonymous client is refused as such
  if (!request.rc.user) throw Errors.notAuthenticated();
  throw Errors.badRequest(NOT_SUPPORTED[kind]);
}

export function registerScriptRoutes(app: FastifyInstance, _ctx: AppContext): void {
  const read = { exposeHeadRoute: true } as const;
  const write = { config: { allow: 'POST' } } as const;
  for (const kind of SCRIPT_ENDPOINTS as Kind[]) {
    const base = `/api/extras/${kind}`;
    app.get(`${base}/`, read, async () => ({ count: 0, next: null, previous: null, results: [] }));
    // `<module>.<Class>`: there is none
    app.get(`${base}/:name/`, read, async () => {
      throw Errors.notFound();
    });
  }
  app.post('/api/extras/reports/:name/run/', write, async (request) => refuseRun(request, 'reports'));
  app.post('/api/extras/scripts/:name/', write, async (request) => refuseRun(request, 'scripts'));
}

const DETAIL = { $ref: '#/components/schemas/Detail' };
const EMPTY_LIST = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    next: { type: 'string', nullable: true },
    previous: { type: 'string', nullable: true },
    results: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
};
const NAME = { name: 'name', in: 'path', required: true, schema: { type: 'string' }, description: '<module>.<Class>' };
const doc = (
  path: string,
  method: 'get' | 'post',
  operationId: string,
  summary: string,
  responses: RouteDoc['responses'],
): RouteDoc => ({
  path,
  method,
  operationId,
  tag: 'extras',
  summary,
  responses,
  ...(path.includes('{name}') ? { parameters: [NAME] } : {}),
});

export const SCRIPT_DOCS: RouteDoc[] = [
  doc(
    '/api/extras/reports/',
    'get',
    'extras_reports_list',
    'Custom reports: always empty (this service runs no user Python modules)',
    { 200: EMPTY_LIST },
  ),
  doc('/api/extras/reports/{name}/', 'get', 'extras_reports_retrieve', 'One report: never found', { 404: DETAIL }),
  doc(
    '/api/extras/reports/{name}/run/',
    'post',
    'extras_reports_run_create',
    'Running a report: refused, reports are not supported',
    { 400: DETAIL, 403: DETAIL },
  ),
  doc(
    '/api/extras/scripts/',
    'get',
    'extras_scripts_list',
    'Custom scripts: always empty (this service runs no user Python modules)',
    { 200: EMPTY_LIST },
  ),
  doc('/api/extras/scripts/{name}/', 'get', 'extras_scripts_retrieve', 'One script: never found', { 404: DETAIL }),
  doc(
    '/api/extras/scripts/{name}/',
    'post',
    'extras_scripts_create',
    'Running a script: refused, scripts are not supported',
    { 400: DETAIL, 403: DETAIL },
  ),
];
