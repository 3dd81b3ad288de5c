import type { ModelDef } from './model/types.js';

/** Absolute list URL of a model. */
export function listUrl(baseUrl: string, model: ModelDef): string {
  return `${baseUrl}/api/${model.app}/${model.path}/`;
}

/** Absolute detail URL of an object. */
export function detailUrl(baseUrl: string, model: ModelDef, id: unknown): string {
  return `${baseUrl}/api/${model.app}/${model.path}/${id}/`;
}

/** Absolute URL of an object's page in the web interface (NetBox 4.1+ `display_url`). */
export function pageUrl(baseUrl: string, model: ModelDef, id: unknown): string {
  return `${baseUrl}/${model.app}/${model.path}/${id}/`;
}
