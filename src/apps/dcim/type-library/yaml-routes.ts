/**
 * `POST /api/dcim/device-types/` and `/api/dcim/module-types/` with a YAML body
 * (`application/yaml`, `application/x-yaml`, `text/yaml`): device-type library documents
 * (import-types.ts), one document, a list of them, or several `---` documents, all in one
 * transaction. 201 with the type made (one document) or the list of them; a failing key is a 400
 * naming it. JSON bodies go to the list route as before; YAML on any other route is a 415, as
 * before.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAllDocuments } from 'yaml';
import type { AppContext } from '../../../core/context.js';
import { Errors } from '../../../core/errors.js';
import { Registry } from '../../../core/model/registry.js';
import type { ModelDef } from '../../../core/model/types.js';
import { importTypeLibrary } from './import-types.js';
import { TYPE_LIBRARY_MODELS } from './library-keys.js';

const YAML_TYPE = /^(application\/(x-)?yaml|text\/(x-)?yaml)\s*(;.*)?$/i;

/** a parsed YAML body: its documents, and whether it was one document of one type (answered as an object) */
class YamlDocuments {
  constructor(
    readonly docs: unknown[],
    readonly single: boolean,
  ) {}
}

function parseYamlBody(text: string): YamlDocuments {
  const parsed = parseAllDocuments(text);
  const all = Array.isArray(parsed) ? parsed : [];
  for (const doc of all) if (doc.errors.length) throw Errors.badRequest(`YAML parse error - ${doc.errors[0]!.message}`);
  const values = all.map((d) => d.toJS() as unknown).filter((v) => v !== null && v !== undefined);
  if (!values.length) throw Errors.badRequest('The YAML body holds no document.');
  if (values.length === 1)
    return Array.isArray(values[0]) ? new YamlDocuments(values[0], false) : new YamlDocuments(values, true);
  return new YamlDocuments(values, false);
}

export function registerTypeLibraryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const byUrl = new Map<string, ModelDef>();
  for (const name of TYPE_LIBRARY_MODELS) {
    const model = ctx.registry.get(name);
    for (const appName of Registry.appsOf(model)) byUrl.set(`/api/${appName}/${model.path}/`, model);
  }
  app.addContentTypeParser(YAML_TYPE, { parseAs: 'string' }, (request, raw, done) => {
    if (request.method !== 'POST' || !byUrl.has(request.routeOptions.url ?? ''))
      return done(Errors.unsupportedMediaType(String(request.headers['content-type'])), undefined);
    try {
      done(null, parseYamlBody(String(raw)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // before the list route's handler, which takes JSON: one class check per request, no promise
  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!(request.body instanceof YamlDocuments)) return done();
    answer(request, reply, byUrl.get(request.routeOptions.url ?? '')!, request.body).catch(done);
  });
}

async function answer(request: FastifyRequest, reply: FastifyReply, model: ModelDef, body: YamlDocuments) {
  const { rows, errors } = await importTypeLibrary(request.rc, model, body.docs, { dryRun: false });
  if (Object.keys(errors).length) throw Errors.validation(errors);
  reply.code(201).send(body.single ? rows[0] : rows);
}
