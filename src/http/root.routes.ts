/**
 * The API root, each app's root (endpoint name -> absolute list URL, keys sorted),
 * `/api/status/` in NetBox's shape, which pynetbox's status() reads, and NetBox 4.5's
 * `/api/authentication-check/` (#20936): whoever the credentials name, or a 403.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import type { RouteDoc } from '../core/openapi/types.js';
import { hostname } from 'node:os';
import { DIALECT_RELEASE, servedIn } from '../core/model/dialect.js';
import { API_VERSION } from './headers.js';
import { Errors } from '../core/errors.js';
import { fetchOne } from '../core/crud/read.js';
import { render } from '../core/represent/render.js';

// spec: Common rules 2 - all eight apps appear, plugins possibly empty; NetBox's core, vpn and
// wireless apps besides (the spec's list is the minimum, and a superset is rendered: docs/api-differences.md)
export const APPS = [
  'circuits',
  'core',
  'dcim',
  'extras',
  'ipam',
  'plugins',
  'tenancy',
  'users',
  'virtualization',
  'vpn',
  'wireless',
];
export const SERVICE_VERSION = `${API_VERSION}.0`;

export function registerRootRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  extraEndpoints: Record<string, string[]>,
): void {
  // HEAD answers wherever GET does (app.ts turns Fastify's automatic HEAD routes off)
  app.get('/api/', { config: { public: true }, exposeHeadRoute: true }, async (request) => {
    const base = request.rc.baseUrl;
    const out: Record<string, string> = {};
    for (const a of [...APPS, 'status'].sort()) out[a] = `${base}/api/${a}/`;
    return out;
  });
  for (const a of APPS) {
    app.get(`/api/${a}/`, { exposeHeadRoute: true }, async (request) => {
      const base = request.rc.baseUrl;
      // models mounted here too (ModelDef.alsoAt) list the path under this app
      const entries: Array<[string, string]> = ctx.registry
        .servedAt(a)
        .filter((m) => servedIn(m, request.rc.dialect))
        .map((m) => [m.path, `${base}/api/${a}/${m.path}/`]);
      for (const e of extraEndpoints[a] ?? []) entries.push([e, `${base}/api/${a}/${e}/`]);
      return Object.fromEntries(entries.sort(([x], [y]) => (x < y ? -1 : 1)));
    });
  }
  // NetBox 4.5 AuthenticationCheckView: the user as UserSerializer shows it, needing no permission to
  // view users (it is the caller's own). Served in both dialects: a client checking its credentials
  // reads its user in the shapes it speaks, and no 3.4 client asks for this path.
  app.get('/api/authentication-check/', { exposeHeadRoute: true }, async (request) => {
    const rc = request.rc;
    if (!rc.user) throw Errors.notAuthenticated();
    const model = ctx.registry.get('users.user');
    const [user] = await render(rc, model, [await fetchOne(rc, model, rc.user.id, null)], 'full');
    return user;
  });
  app.get('/api/status/', { exposeHeadRoute: true }, async (request) => {
    const installed = { fastify: app.version, kysely: '0.28.18', pino: '10.4.0' };
    if (request.rc.dialect === '4.4') {
      // NetBox 4.4 renamed installed-apps and added hostname and netbox-full-version (#19773, #19893)
      return {
        'django-version': null,
        hostname: hostname(),
        installed_apps: installed,
        'netbox-version': DIALECT_RELEASE['4.4'],
        'netbox-full-version': DIALECT_RELEASE['4.4'],
        'node-version': process.versions.node,
        plugins: {},
        'python-version': null,
        'rq-workers-running': 0,
        database: ctx.db.engine,
      };
    }
    return {
      'django-version': null,
      'installed-apps': installed,
      'netbox-version': SERVICE_VERSION,
      'node-version': process.versions.node,
      plugins: {},
      'python-version': null,
      'rq-workers-running': 0,
      database: ctx.db.engine,
    };
  });
}

const LINKS = { type: 'object', additionalProperties: { type: 'string', format: 'uri' } };

/** The routes above in the OpenAPI document. */
export const ROOT_DOCS: RouteDoc[] = [
  {
    path: '/api/',
    method: 'get',
    operationId: 'api_root',
    tag: 'api',
    summary: 'Links to every app',
    public: true,
    responses: { 200: LINKS },
  },
  ...APPS.map(
    (a): RouteDoc => ({
      path: `/api/${a}/`,
      method: 'get',
      operationId: `${a}_root`,
      tag: a,
      summary: `Links to the ${a} endpoints`,
      responses: { 200: LINKS },
    }),
  ),
  {
    path: '/api/authentication-check/',
    method: 'get',
    operationId: 'authentication_check_retrieve',
    tag: 'authentication-check',
    summary: 'The user the request authenticates as (NetBox 4.5); 403 without credentials',
    responses: { 200: { $model: 'users.user', form: 'full' }, 403: { $ref: '#/components/schemas/Detail' } },
  },
  {
    path: '/api/status/',
    method: 'get',
    operationId: 'status_retrieve',
    tag: 'status',
    summary: "The service's version, its components and its database engine (NetBox's shape)",
    responses: {
      200: {
        type: 'object',
        properties: {
          'django-version': { type: 'string', nullable: true },
          'installed-apps': { type: 'object', additionalProperties: { type: 'string' } },
          'netbox-version': { type: 'string' },
          'node-version': { type: 'string' },
          plugins: { type: 'object', additionalProperties: { type: 'string' } },
          'python-version': { type: 'string', nullable: true },
          'rq-workers-running': { type: 'integer' },
          database: { type: 'string', enum: ['pglite', 'postgres'] },
        },
        required: ['netbox-version', 'installed-apps', 'plugins', 'rq-workers-running'],
        additionalProperties: false,
      },
    },
  },
];
