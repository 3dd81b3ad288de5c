/**
 * The API root, each app's root (endpoint name -> absolute list URL, keys sorted) and
 * `/api/status/` in NetBox's shape, which pynetbox's status() reads.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import { listUrl } from '../core/urls.js';
import { API_VERSION } from './headers.js';

// spec: Common rules 2 - all eight apps appear, plugins possibly empty
export const APPS = ['circuits', 'dcim', 'extras', 'ipam', 'plugins', 'tenancy', 'users', 'virtualization'];
export const SERVICE_VERSION = `${API_VERSION}.0`;

export function registerRootRoutes(app: FastifyInstance, ctx: AppContext, extraEndpoints: Record<string, string[]>): void {
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
      const entries: Array<[string, string]> = ctx.registry.appModels(a).map((m) => [m.path, listUrl(base, m)]);
      for (const e of extraEndpoints[a] ?? []) entries.push([e, `${base}/api/${a}/${e}/`]);
      return Object.fromEntries(entries.sort(([x], [y]) => (x < y ? -1 : 1)));
    });
  }
  app.get('/api/status/', { exposeHeadRoute: true }, async () => {
    return {
      'django-version': null,
      'installed-apps': { fastify: app.version, kysely: '0.28.18', pino: '10.4.0' },
      'netbox-version': SERVICE_VERSION,
      'node-version': process.versions.node,
      plugins: {},
      'python-version': null,
      'rq-workers-running': 0,
      database: ctx.db.engine,
    };
  });
}
