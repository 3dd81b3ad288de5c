/**
 * The OpenAPI 3.0 document of the whole API, generated from the model registry and the route
 * descriptions of the special routes: nothing per model is written by hand, so a model added to
 * the registry adds its paths, parameters and schemas here.
 */
import type { Registry } from '../model/registry.js';
import { ERROR_RESPONSES, json, modelPaths } from './operations.js';
import {
  componentName,
  nullable,
  ref,
  representationSchema,
  requestSchema,
  resolveShape,
  SCHEMA_NAMES,
  type Schema,
} from './shapes.js';
import type { RouteDoc } from './types.js';
import { DIALECT_RELEASE, type Dialect, servedIn } from '../model/dialect.js';

export interface DocumentOptions {
  registry: Registry;
  /** routes beyond the generic model routes (root, status, allocation, provisioning, ...) */
  routes: RouteDoc[];
  /** the service version reported as info.version (clients compare it with /api/status/) */
  version: string;
  /** the API dialect described (core/model/dialect.ts); 3.4 by default */
  dialect?: Dialect;
}

const COMMON_SCHEMAS: Record<string, Schema> = {
  // a 500 also names the request id to quote when reporting it
  Detail: {
    type: 'object',
    properties: { detail: { type: 'string' }, request_id: { type: 'string', format: 'uuid' } },
    required: ['detail'],
    additionalProperties: false,
  },
  // reference 6.1: `{field: [messages]}`, `__all__`, `non_field_errors`, or a list aligned with bulk input
  ValidationError: {
    anyOf: [
      { type: 'object', additionalProperties: { type: 'array' } },
      { type: 'array', items: { type: 'object', additionalProperties: { type: 'array' } } },
      { $ref: '#/components/schemas/Detail' },
    ],
  },
  // reference 9: DRF's metadata; `actions` only for callers allowed to add or change
  Metadata: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      renders: { type: 'array', items: { type: 'string' } },
      parses: { type: 'array', items: { type: 'string' } },
      actions: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'object' } } },
    },
    required: ['name', 'description', 'renders', 'parses'],
    additionalProperties: false,
  },
};

function modelSchemas(registry: Registry, dialect: Dialect): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const owner = new Map<string, string>();
  for (const model of registry.all()) {
    if (!servedIn(model, dialect)) continue;
    const name = componentName(model);
    const clash = owner.get(name);
    if (clash) throw new Error(`OpenAPI: ${model.name} and ${clash} are both named ${name}; declare schemaName on one`);
    owner.set(name, model.name);
    out[SCHEMA_NAMES.full(name)] = representationSchema(registry, model, 'full', dialect);
    out[SCHEMA_NAMES.brief(name)] = representationSchema(registry, model, 'brief', dialect);
    out[SCHEMA_NAMES.nested(name)] = representationSchema(registry, model, 'nested', dialect);
    out[SCHEMA_NAMES.paginated(name)] = {
      type: 'object',
      properties: {
        // a cursor page (`?start=`, NetBox 4.6) has no count; 3.4 has no cursor pages
        count: dialect === '4.4' ? nullable({ type: 'integer' }) : { type: 'integer' },
        next: nullable({ type: 'string', format: 'uri' }),
        previous: nullable({ type: 'string', format: 'uri' }),
        results: { type: 'array', items: { anyOf: [ref(SCHEMA_NAMES.full(name)), ref(SCHEMA_NAMES.brief(name))] } },
      },
      required: ['count', 'next', 'previous', 'results'],
      additionalProperties: false,
    };
    if (model.readOnly) continue;
    out[SCHEMA_NAMES.writable(name)] = requestSchema(model, true, dialect);
    out[SCHEMA_NAMES.patched(name)] = requestSchema(model, false, dialect);
  }
  return out;
}

function routeOperation(registry: Registry, route: RouteDoc): Schema {
  const responses: Record<string, Schema> = {};
  for (const [status, shape] of Object.entries(route.responses)) {
    if (shape === null) responses[status] = { description: 'No content.' };
    else if (route.produces && status.startsWith('2'))
      responses[status] = {
        description: 'Success.',
        content: { [route.produces]: { schema: resolveShape(registry, shape) } },
      };
    else
      responses[status] = {
        description: status.startsWith('2') ? 'Success.' : 'Error.',
        content: json(resolveShape(registry, shape)),
      };
    if (route.alsoProduces && status.startsWith('2')) {
      const content = responses[status]!.content as Record<string, Schema>;
      for (const [type, alt] of Object.entries(route.alsoProduces))
        content[type] = { schema: resolveShape(registry, alt) };
    }
  }
  responses.default ??= ERROR_RESPONSES.default;
  return {
    operationId: route.operationId,
    tags: [route.tag],
    ...(route.summary ? { summary: route.summary } : {}),
    ...(route.description ? { description: route.description } : {}),
    ...(route.parameters ? { parameters: route.parameters.map((p) => resolveShape(registry, p)) } : {}),
    ...(route.requestBody
      ? { requestBody: { required: true, content: json(resolveShape(registry, route.requestBody)) } }
      : {}),
    responses,
    ...(route.public ? { security: [] } : {}),
  };
}

export function buildOpenApiDocument(opts: DocumentOptions): Schema {
  const { registry } = opts;
  const dialect = opts.dialect ?? '3.4';
  const paths: Record<string, Record<string, Schema>> = {};
  for (const model of registry.all()) if (servedIn(model, dialect)) Object.assign(paths, modelPaths(model, dialect));
  for (const route of opts.routes) {
    if (route.dialect && route.dialect !== dialect) continue;
    const path = (paths[route.path] ??= {});
    if (path[route.method]) throw new Error(`OpenAPI: ${route.method} ${route.path} is described twice`);
    path[route.method] = routeOperation(registry, route);
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const apps = [
    ...new Set(Object.values(sorted).flatMap((p) => Object.values(p).flatMap((op) => op.tags as string[]))),
  ].sort();
  return {
    openapi: '3.0.3',
    info: {
      title: 'Inventory REST API',
      version: dialect === '3.4' ? opts.version : DIALECT_RELEASE[dialect],
      description: `A network source of truth whose REST API follows NetBox ${dialect} (this document; ask for another with \`Accept: application/json; version=X\`). Authenticate with \`Authorization: Token <key>\`.`,
      license: { name: 'Apache-2.0' },
    },
    tags: apps.map((name) => ({ name })),
    paths: sorted,
    components: {
      schemas: { ...COMMON_SCHEMAS, ...modelSchemas(registry, dialect) },
      securitySchemes: {
        // spec: Authentication 2 - `Authorization: Token <key>`
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The word `Token`, a space, and the 40-character key.',
        },
      },
    },
    // an empty requirement: views exempted by EXEMPT_VIEW_PERMISSIONS answer without a token
    security: [{ tokenAuth: [] }, {}],
  };
}
