import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import type { ModelDef } from '../core/model/types.js';
import type { RouteDoc } from '../core/openapi/types.js';

/** What one app contributes: its models, and routes beyond the generic ones. */
export interface AppModule {
  models: ModelDef[];
  /** endpoints listed in the app's root besides its models (e.g. users/config) */
  extraEndpoints?: string[];
  routes?: Array<(app: FastifyInstance, ctx: AppContext) => void>;
  /** how those routes appear in the OpenAPI document */
  docs?: RouteDoc[];
}
