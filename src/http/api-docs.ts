/**
 * The OpenAPI document and Swagger UI (spec: "What the service does" 3): `/api/schema/` (JSON by
 * default, YAML with `?format=yaml` or `Accept: application/vnd.oai.openapi`), NetBox 3.4's
 * `/api/docs/?format=openapi` (pynetbox's api.openapi(), the Ansible inventory plugin; laid out under
 * an `/api` base as NetBox 3.4's was), and
 * Swagger UI at `/api/schema/swagger-ui/` and `/api/docs/`, its assets served from the
 * swagger-ui-dist package: no request leaves the machine, and no inline script runs (CSP).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../core/errors.js';
import type { DocumentOptions } from '../core/openapi/document.js';
import { KeptDocuments } from '../core/openapi/documents.js';
import type { Registry } from '../core/model/registry.js';
import type { RouteDoc } from '../core/openapi/types.js';
import { queryParams } from '../core/crud/routes.js';
import { acceptsGzip } from './negotiate.js';
import { ROOT_DOCS, SERVICE_VERSION } from './root.routes.js';

const UI_PATH = '/api/schema/swagger-ui/';
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};
// styles: Swagger UI sets style attributes from script; scripts: only these files
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'self'";

/** Reads the UI's config from the page (no inline script), so one initializer serves both pages. */
const INITIALIZER = `window.addEventListener('load', function () {
  var el = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: el.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout'
  });
});
`;

function page(assets: string, specUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Inventory REST API</title>
<link rel="stylesheet" href="${assets}swagger-ui.css">
<link rel="stylesheet" href="${assets}index.css">
<link rel="icon" type="image/png" href="${assets}favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui" data-spec-url="${specUrl}"></div>
<script src="${assets}swagger-ui-bundle.js"></script>
<script src="${assets}swagger-ui-standalone-preset.js"></script>
<script src="${assets}swagger-initializer.js"></script>
</body>
</html>
`;
}

const gunzipped = promisify(gunzip);

const assetDir = join(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'), '..');
const assetCache = new Map<string, Buffer>();

async function asset(file: string): Promise<Buffer> {
  let body = assetCache.get(file);
  if (!body) assetCache.set(file, (body = await readFile(join(assetDir, file))));
  return body;
}

/** The routes below in the document itself. */
const API_DOCS_DOCS: RouteDoc[] = [
  {
    path: '/api/schema/',
    method: 'get',
    operationId: 'schema_retrieve',
    tag: 'schema',
    summary: 'This OpenAPI 3.0 document (JSON; YAML with format=yaml)',
    public: true,
    parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'yaml'] } }],
    responses: { 200: { type: 'object' } },
  },
];

/** What the document describes: every model, and the routes that are not generic model routes. */
export function documentOptions(registry: Registry, specialDocs: RouteDoc[]): DocumentOptions {
  return { registry, routes: [...ROOT_DOCS, ...API_DOCS_DOCS, ...specialDocs], version: SERVICE_VERSION };
}

export function registerApiDocs(app: FastifyInstance, opts: DocumentOptions): void {
  // each form made on the first request for it, once, and kept gzipped (core/openapi/documents.ts)
  const documents = new KeptDocuments(opts, (message) => app.log.warn(message));

  const send = async (request: FastifyRequest, reply: FastifyReply, type: string, body: Buffer) => {
    // the document differs by dialect: the Accept header's version, the token's
    reply.type(type).header('Vary', 'Accept, Accept-Encoding, Authorization');
    if (acceptsGzip(request.headers['accept-encoding'])) return reply.header('Content-Encoding', 'gzip').send(body);
    return reply.send(await gunzipped(body));
  };
  const sendDocument = async (request: FastifyRequest, reply: FastifyReply, format: string | undefined) => {
    const accept = request.headers.accept ?? '';
    const wantsYaml =
      format === 'yaml' || (format === undefined && /application\/vnd\.oai\.openapi(?!\+json)/.test(accept));
    if (wantsYaml)
      return send(
        request,
        reply,
        'application/vnd.oai.openapi; charset=utf-8',
        await documents.gzipped('yaml', request.rc.dialect),
      );
    // the document of the request's API dialect (http/dialect.ts)
    return send(request, reply, 'application/json; charset=utf-8', await documents.gzipped('json', request.rc.dialect));
  };

  const html = (assets: string, specUrl: string) => (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', CSP).send(page(assets, specUrl));
  const uiPage = html('./', '../?format=json');
  const docsPage = html(`..${UI_PATH.slice('/api'.length)}`, '../schema/?format=json');

  app.get('/api/schema/', { config: { public: true } }, async (request, reply) => {
    const format = queryParams(request).get('format')?.[0];
    if (format !== undefined && format !== 'json' && format !== 'yaml' && format !== 'openapi') throw Errors.notFound();
    return sendDocument(request, reply, format === 'openapi' ? 'json' : format);
  });
  // NetBox 3.4 (drf_yasg): the UI, or the document with ?format=openapi
  app.get('/api/docs/', { config: { public: true } }, async (request, reply) => {
    const format = queryParams(request).get('format')?.[0];
    if (format === 'openapi' || format === 'json') {
      return send(
        request,
        reply,
        'application/json; charset=utf-8',
        await documents.gzipped('legacy', request.rc.dialect),
      );
    }
    return docsPage(request, reply);
  });
  app.get(UI_PATH, { config: { public: true } }, async (request, reply) => uiPage(request, reply));
  app.get(`${UI_PATH}:file`, { config: { public: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    reply.header('Cache-Control', 'public, max-age=86400');
    if (file === 'swagger-initializer.js') return reply.type('text/javascript; charset=utf-8').send(INITIALIZER);
    const type = ASSETS[file];
    if (!type) throw Errors.notFound();
    return reply.type(type).send(await asset(file));
  });
}
