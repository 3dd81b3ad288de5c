/**
 * The `view` label of the request metrics: the name NetBox's URL configuration gives the view, so
 * dashboards built on NetBox's django-prometheus series keep their filters
 * (`view="dcim-api:site-list"`). Derived from the route's URL template and the model registry, so
 * every model's REST routes are named without per-model code:
 *
 *   /api/dcim/sites/                        dcim-api:site-list         (DRF router: <model>-list)
 *   /api/dcim/sites/:id/                    dcim-api:site-detail
 *   /api/ipam/prefixes/:id/available-ips/   ipam-api:prefix-available-ips   (NetBox's ipam/api/urls.py)
 *   /api/dcim/                              dcim-api:api-root          (the router's root view)
 *
 * A route may name itself (`config: { view: '...' }`); a route none of this knows is labelled by
 * its URL template, which is as bounded as the set of routes. Requests that match no route share
 * one value, django-prometheus's own for them.
 */
import type { Registry } from '../../core/model/registry.js';

/** django-prometheus labels requests that resolved to no view this way */
export const UNNAMED_VIEW = '<unnamed view>';

/** Names NetBox gives views outside the model routers (netbox/urls.py, users/api/urls.py, django_prometheus/urls.py). */
const NAMED: Record<string, string> = {
  '/api/': 'api-root',
  '/api/status/': 'api-status',
  '/api/authentication-check/': 'api-authentication-check',
  '/api/users/tokens/provision/': 'users-api:token_provision',
  '/api/users/config/': 'users-api:userconfig-list',
  '/api/docs/': 'api_docs',
  '/api/schema/': 'schema',
  '/api/schema/swagger-ui/': 'api_docs',
  '/api/schema/redoc/': 'api_redocs',
  '/graphql/': 'graphql',
  '/metrics': 'prometheus-django-metrics',
};

/** The view name of a route, from its URL template (`/api/dcim/sites/:id/`). */
export function viewName(url: string, registry: Registry): string {
  const named = NAMED[url];
  if (named) return named;
  const parts = url.split('/').filter(Boolean);
  if (parts[0] !== 'api' || parts.length < 2) return url;
  const app = parts[1]!;
  if (parts.length === 2) return `${app}-api:api-root`;
  const model = registry.servedAt(app).find((m) => m.path === parts[2]);
  if (!model) return url;
  const rest = parts.slice(3);
  if (rest.length === 0) return `${app}-api:${model.model}-list`;
  if (rest[0] !== ':id') return url;
  if (rest.length === 1) return `${app}-api:${model.model}-detail`;
  // detail actions (available-ips, trace, paths, elevation): NetBox names them <model>-<action>
  if (rest.length === 2 && !rest[1]!.startsWith(':')) return `${app}-api:${model.model}-${rest[1]}`;
  return url;
}
