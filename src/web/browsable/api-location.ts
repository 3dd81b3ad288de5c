/**
 * Where in the API a request is, read from its path and the registry alone (no per-model page
 * code): the API root, an app root, a model's list or one object, or another endpoint (status,
 * available-ips, ...). Gives the page its title and breadcrumbs.
 */
import type { ModelDef } from '../../core/model/types.js';
import type { Registry } from '../../core/model/registry.js';
import { appLabel, capitalize } from '../labels.js';
import type { Crumb } from '../layout.js';

export type ApiLocation =
  | { kind: 'root' }
  | { kind: 'app'; app: string }
  | { kind: 'list'; app: string; model: ModelDef }
  | { kind: 'detail'; app: string; model: ModelDef; id: string }
  | { kind: 'other'; segments: string[] };

/** `path` is the URL path without its query, `/api/...`. */
export function locate(registry: Registry, path: string, apps: readonly string[]): ApiLocation {
  const segments = path.split('/').filter(Boolean).slice(1);
  if (!segments.length) return { kind: 'root' };
  const [app, modelPath, id, ...rest] = segments as [string, string?, string?, ...string[]];
  if (segments.length === 1 && apps.includes(app)) return { kind: 'app', app };
  const model = modelPath ? registry.servedAt(app).find((m) => m.path === modelPath) : undefined;
  if (model && id === undefined) return { kind: 'list', app, model };
  if (model && id !== undefined && !rest.length && /^\d+$/.test(id)) return { kind: 'detail', app, model, id };
  return { kind: 'other', segments };
}

/** Breadcrumbs from the path: each segment links to its prefix, the last one is this page. */
export function crumbsOf(registry: Registry, path: string, title: string): Crumb[] {
  const segments = path.split('/').filter(Boolean);
  const model = registry.servedAt(segments[1] ?? '').find((m) => m.path === segments[2]);
  const crumbs: Crumb[] = [];
  let prefix = '';
  segments.forEach((seg, i) => {
    prefix += `/${seg}`;
    const last = i === segments.length - 1;
    let label = i === 0 ? 'API' : i === 1 ? appLabel(seg) : seg;
    if (model && i === 2) label = capitalize(model.verboseNamePlural);
    if (last && i > 0) label = title;
    crumbs.push(last ? { label } : { label, href: `${prefix}/` });
  });
  return crumbs;
}

/** The page's heading: the model's or object's name where the registry knows it. */
export function titleOf(loc: ApiLocation, body: unknown): string {
  switch (loc.kind) {
    case 'root':
      return 'API root';
    case 'app':
      return `${appLabel(loc.app)} API root`;
    case 'list':
      return capitalize(loc.model.verboseNamePlural);
    case 'detail': {
      const display = (body as { display?: unknown } | null)?.display;
      return typeof display === 'string' && display ? display : `${capitalize(loc.model.verboseName)} ${loc.id}`;
    }
    case 'other':
      return capitalize(loc.segments.at(-1)!.replace(/-/g, ' '));
  }
}
