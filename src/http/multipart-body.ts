/**
 * `multipart/form-data` bodies, for the routes of models that take uploads (ModelDef.uploads: image
 * attachments, as pynetbox, curl -F and browsers post them). The text parts become the request body,
 * as a JSON object of strings would be, and the files go to request.uploadedFiles, which
 * request-context.ts hands to the write path as rc.files. Every other route refuses such a body with
 * 415 before reading it. A web page's form may take them too (an import's file, web/model-pages/import.page.ts):
 * its fields are then also the request's form fields, as a urlencoded form's are. The body is read into memory up to a limit (the largest upload plus room
 * for the text fields): an image is sniffed and measured whole anyway, and is then written to disk
 * atomically by the model's hooks.
 *
 * Why not @fastify/multipart: it streams parts to the handler (busboy), which suits big files
 * written as they arrive; ours are bounded images read whole, the engine's generic routes expect a
 * parsed body, and a parser that only fills `request.body` keeps one write path and no new dependency.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors } from '../core/errors.js';
import { Registry } from '../core/model/registry.js';
import type { UploadedFile } from '../core/media/uploaded-file.js';
import { MultipartError, parseMultipart } from './multipart.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the files of a multipart body, by field name; null for any other body */
    uploadedFiles: Map<string, UploadedFile> | null;
  }
}

const MULTIPART = /^multipart\/form-data(;.*)?$/i;

export interface MultipartOptions {
  /**
   * route URLs (as registered: `/api/extras/image-attachments/:id/`) that take multipart bodies,
   * each with the largest body it accepts in bytes (more is a 413)
   */
  routes: ReadonlyMap<string, number>;
}

export function registerMultipartParser(app: FastifyInstance, opts: MultipartOptions): void {
  app.decorateRequest('uploadedFiles', null);
  app.addContentTypeParser(MULTIPART, (request: FastifyRequest, payload, done) => {
    // other routes answer 415, as they did before any route took multipart bodies
    const maxBytes = opts.routes.get(request.routeOptions.url ?? '');
    if (maxBytes === undefined) return done(Errors.unsupportedMediaType('multipart/form-data'), undefined);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) return done(Errors.bodyTooLarge(), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (err: Error | null, body?: unknown) => {
      if (finished) return;
      finished = true;
      done(err, body);
    };
    payload.on('data', (chunk: Buffer) => {
      if (finished) return;
      size += chunk.length;
      if (size > maxBytes) return finish(Errors.bodyTooLarge());
      chunks.push(chunk);
    });
    payload.on('error', (err) => finish(err));
    payload.on('end', () => {
      if (finished) return;
      try {
        const parsed = parseMultipart(Buffer.concat(chunks), String(request.headers['content-type']));
        request.uploadedFiles = parsed.files;
        // a page's form (an import's file): its fields are a form's, so the CSRF check reads its token
        if (!request.url.startsWith('/api/')) {
          request.formFields = parsed.fields;
          request.formValues = new Map(Object.entries(parsed.fields).map(([k, v]) => [k, [v]]));
        }
        finish(null, parsed.fields);
      } catch (err) {
        finish(err instanceof MultipartError ? Errors.badRequest(err.message) : (err as Error));
      }
    });
  });
}

/** room for a multipart body's text fields and part headers besides its largest file */
export const MULTIPART_FIELDS_ROOM = 256 * 1024;

/** The list and detail route URLs of the models that take uploads (ModelDef.uploads). */
export function uploadRouteUrls(registry: Registry): Set<string> {
  const urls = new Set<string>();
  for (const model of registry.all()) {
    if (!model.uploads) continue;
    for (const app of Registry.appsOf(model))
      urls.add(`/api/${app}/${model.path}/`).add(`/api/${app}/${model.path}/:id/`);
  }
  return urls;
}
