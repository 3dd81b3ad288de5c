/**
 * The operations every registered model answers (core/crud/routes.ts), in NetBox's operationId style
 * (drf-spectacular, NetBox 3.5+: `dcim_sites_list`, `dcim_sites_bulk_partial_update`, ...).
 */
import { Registry } from '../model/registry.js';
import type { ModelDef } from '../model/types.js';
import { detailParameters, listParameters } from './parameters.js';
import type { Dialect } from '../model/dialect.js';
import { componentName, ref, SCHEMA_NAMES, type Schema } from './shapes.js';
import { deleteBodyProperties, etagHeader, ifMatch } from './request-mechanics.js';

export const ERROR_RESPONSES = {
  400: {
    description: 'Invalid input: field errors, or a list of them aligned with a bulk request.',
    content: json(ref('ValidationError')),
  },
  403: { description: 'Not authenticated, or not permitted.', content: json(ref('Detail')) },
  404: { description: 'Not found, or outside the permitted objects.', content: json(ref('Detail')) },
  409: {
    description: 'Conflict: protected by dependent objects, or nothing left to allocate.',
    content: json(ref('Detail')),
  },
  default: { description: 'Any other error (405, 406, 413, 415, 503).', content: json(ref('Detail')) },
};

export function json(schema: Schema): Schema {
  return { 'application/json': { schema } };
}

const body = (schema: Schema, required = true) => ({ required, content: json(schema) });
const ok = (description: string, schema: Schema) => ({ description, content: json(schema) });
const errors = (...codes: Array<keyof typeof ERROR_RESPONSES>) =>
  Object.fromEntries(codes.map((c) => [c, ERROR_RESPONSES[c]]));

const idItem = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
const withId = (schema: Schema): Schema => ({ allOf: [schema, idItem] });
/** an item schema with more properties (a bulk delete's changelog_message) */
const withProperties = (item: Schema, more: Record<string, Schema>): Schema =>
  Object.keys(more).length ? { ...item, properties: { ...(item.properties as Schema), ...more } } : item;
const oneOrMany = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'array', items: schema }] });

/** OPTIONS metadata (reference 9); `actions` only for callers allowed to add or change */
const OPTIONS_RESPONSE = { 200: ok('Metadata of the endpoint.', ref('Metadata')), ...errors('default') };

/**
 * `{ '/api/dcim/sites/': {...}, '/api/dcim/sites/{id}/': {...} }` for one model, under each app
 * serving it (ModelDef.alsoAt: `ipam_l2vpns_list` beside `vpn_l2vpns_list`, the same schemas).
 */
export function modelPaths(model: ModelDef, dialect: Dialect = '3.4'): Record<string, Record<string, Schema>> {
  return Object.assign({}, ...Registry.appsOf(model).map((app) => pathsAt(model, app, dialect)));
}

function pathsAt(model: ModelDef, app: string, dialect: Dialect): Record<string, Record<string, Schema>> {
  const name = componentName(model);
  const full = ref(SCHEMA_NAMES.full(name));
  // anyOf: where a model's brief form shows every field, both match
  const either = { anyOf: [full, ref(SCHEMA_NAMES.brief(name))] };
  const writable = ref(SCHEMA_NAMES.writable(name));
  const patched = ref(SCHEMA_NAMES.patched(name));
  const op = `${app}_${model.path.replace(/-/g, '_')}`;
  const tags = [app];
  const at = `/api/${app}/${model.path}/`;
  const plural = model.verboseNamePlural;

  const list: Record<string, Schema> = {
    get: {
      operationId: `${op}_list`,
      tags,
      summary: `List ${plural}`,
      description: 'Custom fields filter as `cf_<name>` with the lookups of their type.',
      parameters: listParameters(model, dialect),
      responses: { 200: ok(`A page of ${plural}.`, ref(SCHEMA_NAMES.paginated(name))), ...errors(400, 403, 'default') },
    },
    options: {
      operationId: `${op}_options`,
      tags,
      summary: `Describe the ${plural} endpoint`,
      responses: OPTIONS_RESPONSE,
    },
  };
  const detail: Record<string, Schema> = {
    get: {
      operationId: `${op}_retrieve`,
      tags,
      summary: `Retrieve a ${model.verboseName}`,
      parameters: detailParameters(model, dialect),
      responses: {
        200: { ...ok(`The ${model.verboseName}.`, either), ...etagHeader(dialect) },
        ...errors(403, 404, 'default'),
      },
    },
    options: {
      operationId: `${op}_detail_options`,
      tags,
      summary: `Describe the ${model.verboseName} endpoint`,
      parameters: [detailParameters(model, dialect)[0]],
      responses: OPTIONS_RESPONSE,
    },
  };
  if (model.readOnly) return { [at]: list, [`${at}{id}/`]: detail };

  const idParam = [detailParameters(model, dialect)[0]];
  // NetBox 4.4-4.6 (request-mechanics.ts): If-Match and its 412; a delete's optional changelog_message
  const precondition = ifMatch(dialect);
  const deleteProps = deleteBodyProperties(dialect);
  const deleteBody = Object.keys(deleteProps).length
    ? { requestBody: body({ type: 'object', properties: deleteProps }, false) }
    : {};
  // ModelDef.uploads: one object's write may also be a multipart/form-data form (file parts beside the fields)
  const orForm = (b: { required: boolean; content: Schema }, schema: Schema) =>
    model.uploads ? { ...b, content: { ...b.content, 'multipart/form-data': { schema } } } : b;
  Object.assign(list, {
    post: {
      operationId: `${op}_create`,
      tags,
      summary: `Create one ${model.verboseName} or a list of them (all or nothing)`,
      requestBody: orForm(body(oneOrMany(writable)), writable),
      responses: {
        201: { ...ok('The created object, or the list created.', oneOrMany(full)), ...etagHeader(dialect) },
        ...errors(400, 403, 'default'),
      },
    },
    put: {
      operationId: `${op}_bulk_update`,
      tags,
      summary: `Replace several ${plural} (all or nothing)`,
      requestBody: body({ type: 'array', items: withId(writable) }),
      responses: {
        200: ok('The updated objects.', { type: 'array', items: full }),
        ...errors(400, 403, 404, 'default'),
      },
    },
    patch: {
      operationId: `${op}_bulk_partial_update`,
      tags,
      summary: `Update fields of several ${plural} (all or nothing)`,
      requestBody: body({ type: 'array', items: withId(patched) }),
      responses: {
        200: ok('The updated objects.', { type: 'array', items: full }),
        ...errors(400, 403, 404, 'default'),
      },
    },
    delete: {
      operationId: `${op}_bulk_destroy`,
      tags,
      summary: `Delete several ${plural} (all or nothing)`,
      requestBody: body({ type: 'array', items: withProperties(idItem, deleteBodyProperties(dialect)) }),
      responses: { 204: { description: 'Deleted.' }, ...errors(400, 403, 404, 409, 'default') },
    },
  });
  Object.assign(detail, {
    put: {
      operationId: `${op}_update`,
      tags,
      summary: `Replace a ${model.verboseName}`,
      parameters: [...idParam, ...precondition.parameters],
      requestBody: orForm(body(writable), writable),
      responses: {
        200: { ...ok(`The updated ${model.verboseName}.`, full), ...etagHeader(dialect) },
        ...errors(400, 403, 404, 'default'),
        ...precondition.responses,
      },
    },
    patch: {
      operationId: `${op}_partial_update`,
      tags,
      summary: `Update fields of a ${model.verboseName}`,
      parameters: [...idParam, ...precondition.parameters],
      requestBody: orForm(body(patched, false), patched),
      responses: {
        200: { ...ok(`The updated ${model.verboseName}.`, full), ...etagHeader(dialect) },
        ...errors(400, 403, 404, 'default'),
        ...precondition.responses,
      },
    },
    delete: {
      operationId: `${op}_destroy`,
      tags,
      summary: `Delete a ${model.verboseName}`,
      parameters: [...idParam, ...precondition.parameters],
      ...deleteBody,
      responses: {
        204: { description: 'Deleted.' },
        ...errors(403, 404, 409, 'default'),
        ...(dialect === '4.4' ? errors(400) : {}),
        ...precondition.responses,
      },
    },
  });
  return { [at]: list, [`${at}{id}/`]: detail };
}
