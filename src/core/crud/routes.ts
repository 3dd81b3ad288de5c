/**
 * The REST routes every registered model gets (spec: Operations on a model path): list and detail
 * views with GET/HEAD, POST, PUT, PATCH, DELETE and OPTIONS; read-only models register reads only,
 * so writes answer 405 (http/not-found.ts).
 * Each write runs in one transaction.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cachedRead } from '../cache/cached-read.js';
import { servedIn } from '../model/dialect.js';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import { Registry } from '../model/registry.js';
import type { ModelDef, Row } from '../model/types.js';
import type { Params } from '../query/filters.js';
import { renderWritten } from '../represent/render-written.js';
import { detailUrl } from '../urls.js';
import { describeModel } from './options.js';
import { isPlainObject, typeName } from './parse-field.js';
import { getObjectWithEtag, listFromCursor, listObjects } from './read.js';
import { parseCursor } from '../query/pagination.js';
import { deleteMessageOf, deleteMessagesOf } from './changelog-message.js';
import { etagOf, ifMatchOf } from './etag.js';
import { exportList } from '../templates/export-list.js';
import { createObjects, deleteObjects, updateObjects } from './write-service.js';
import { preloadForWrite } from '../cache/write-preload.js';

const LIST_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
const DETAIL_METHODS = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const READ_METHODS = 'GET, HEAD, OPTIONS';
/** the methods of an Allow header: a route registers exactly these, so others answer 405 (http/not-found.ts) */
const methodsOf = (allow: string) => allow.split(', ') as Array<'GET'>;

export function queryParams(request: FastifyRequest): Params {
  const i = request.url.indexOf('?');
  const map: Params = new Map();
  if (i < 0) return map;
  for (const [k, v] of new URLSearchParams(request.url.slice(i + 1))) {
    const list = map.get(k) ?? [];
    list.push(v);
    map.set(k, list);
  }
  return map;
}

/**
 * Runs fn in one database transaction, with rc.q bound to it. What fn leaves in rc.afterCommit runs
 * once the transaction has committed; a rollback drops it and runs what fn left in rc.onRollback
 * instead (the undoing of effects outside the database, such as a file written for a row).
 */
export async function inTransaction<T>(rc: RequestContext, fn: (trx: RequestContext) => Promise<T>): Promise<T> {
  const afterCommit: Array<() => void | Promise<void>> = [];
  const onRollback: Array<() => Promise<void>> = [];
  const deferred: Array<Promise<unknown>> = [];
  let out: T;
  try {
    try {
      out = await rc.app.db.kysely
        .transaction()
        .execute((trx) => fn({ ...rc, q: trx, afterCommit, onRollback, untagged: new Set(), deferred }));
    } finally {
      // a deferred statement that failed aborted the transaction: its COMMIT rolled back, and any
      // statement after it failed for that alone; its own error is the one to answer with
      const failed = (await Promise.allSettled(deferred)).find((r) => r.status === 'rejected');
      // biome-ignore lint/correctness/noUnsafeFinally: the deferred statement's error replaces the one it caused
      if (failed) throw failed.reason;
    }
  } catch (err) {
    for (const undo of onRollback)
      await undo().catch((e: unknown) => rc.app.log.warn({ err: e }, 'undoing a rolled-back write failed'));
    throw err;
  }
  // awaited, so a response is sent once its effects are done (a replaced file is gone)
  for (const run of afterCommit) await run();
  return out;
}

/** a detail route's `<id>`: a whole number, else 404 (as Django's URL pattern does); shared by every route with one */
export function parseId(raw: string): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw Errors.notFound();
  return Number(raw);
}

/** the reply with the ETag of a row just written (etag.ts), when its model has one */
function withEtag(reply: FastifyReply, model: ModelDef, row: Row | undefined): FastifyReply {
  const etag = etagOf(model, row);
  return etag ? reply.header('ETag', etag) : reply;
}

function asList(body: unknown): unknown[] {
  if (!Array.isArray(body)) {
    throw Errors.validation({ non_field_errors: ['Expected a list of items.'] });
  }
  return body;
}

/**
 * The body of a single-object write. DRF's messages: an empty body or `null` is "No data
 * provided" (NetBox would apply an empty body as no change; here it is a 400:
 * docs/api-differences.md, "Strict input"), anything but an object is "Invalid data".
 */
function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) throw Errors.validation({ non_field_errors: ['No data provided'] });
  if (!isPlainObject(body)) {
    throw Errors.validation({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(body)}.`] });
  }
  return body;
}

/** Bulk update/delete items must each carry an integer id. */
function bulkItems(body: unknown): Array<Record<string, unknown>> {
  const items = asList(body);
  const errors = items.map((it) => {
    if (typeof it !== 'object' || it === null || Array.isArray(it))
      return { non_field_errors: ['Invalid data. Expected a dictionary.'] };
    const id = (it as Record<string, unknown>).id;
    if (id === undefined || id === null) return { id: ['This field is required.'] };
    if (!Number.isSafeInteger(typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id))
      return { id: ['A valid integer is required.'] };
    return {};
  });
  if (errors.some((e) => Object.keys(e).length)) throw Errors.validation(errors);
  return items as Array<Record<string, unknown>>;
}

export function registerModelRoutes(app: FastifyInstance, model: ModelDef): void {
  const listAllow = model.readOnly ? READ_METHODS : LIST_METHODS;
  const detailAllow = model.readOnly ? READ_METHODS : DETAIL_METHODS;

  const list = async (request: FastifyRequest, reply: FastifyReply) => {
    const rc = request.rc;
    // a model of another dialect only (NetBox 4's MAC addresses for a 3.4 client) is not there
    if (!servedIn(model, rc.dialect)) throw Errors.notFound();
    const method = request.method;
    switch (method) {
      case 'GET':
      case 'HEAD': {
        const params = queryParams(request);
        if (params.has('export')) return exportList(rc, reply, model, params);
        // NetBox 4.6's cursor paging, `?start=`, in the 4.4 dialect only: 3.4's pages carry a count (the spec)
        const start = rc.dialect === '4.4' ? parseCursor(params) : null;
        return cachedRead(request, reply, async () => ({
          body: start === null ? await listObjects(rc, model, params) : await listFromCursor(rc, model, params, start),
        }));
      }
      case 'OPTIONS':
        return describeModel(rc, model, true);
      case 'POST': {
        const bulk = Array.isArray(request.body);
        const inputs = bulk ? (request.body as unknown[]) : [objectBody(request.body)];
        const { rows, out } = await inTransaction(await preloadForWrite(rc, model), async (trx) => {
          // a single create's COMMIT may follow its statement at once (create-in-one.ts); a bulk create's
          // waits for its answer, so a service stopped in the middle of a long write still rolls it back
          const rows = await createObjects(trx, model, inputs, bulk, { endsTransaction: !bulk });
          return { rows, out: await renderWritten(trx, model, rows, { created: true }) };
        });
        reply.code(201);
        if (bulk) return out;
        reply.header('Location', detailUrl(rc.baseUrl, model, out[0]!.id));
        // NetBox 4.6: a single create answers with the new object's ETag (a list has none)
        return withEtag(reply, model, rows[0]).send(out[0]);
      }
      case 'PUT':
      case 'PATCH': {
        const items = bulkItems(request.body);
        return inTransaction(await preloadForWrite(rc, model), async (trx) => {
          const rows = await updateObjects(trx, model, items, method === 'PUT' ? 'replace' : 'update', true);
          return renderWritten(trx, model, rows);
        });
      }
      case 'DELETE': {
        const items = bulkItems(request.body);
        const ids = items.map((i) => Number(i.id));
        const messages = deleteMessagesOf(items);
        await inTransaction(await preloadForWrite(rc, model), (trx) =>
          deleteObjects(trx, model, ids, true, { messages }),
        );
        return reply.code(204).send();
      }
      default:
        throw Errors.methodNotAllowed(method);
    }
  };

  const detail = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const rc = request.rc;
    if (!servedIn(model, rc.dialect)) throw Errors.notFound();
    const method = request.method;
    if (method === 'OPTIONS') return describeModel(rc, model, false);
    const id = parseId(request.params.id);
    switch (method) {
      case 'GET':
      case 'HEAD':
        return cachedRead(request, reply, async () => {
          const { object, etag } = await getObjectWithEtag(rc, model, id, queryParams(request));
          return { body: object, etag };
        });
      case 'PUT':
      case 'PATCH': {
        const body = objectBody(request.body);
        const ifMatch = ifMatchOf(request);
        const { rows, out } = await inTransaction(await preloadForWrite(rc, model), async (trx) => {
          const rows = await updateObjects(
            trx,
            model,
            [{ ...body, id }],
            method === 'PUT' ? 'replace' : 'update',
            false,
            { ifMatch },
          );
          return { rows, out: await renderWritten(trx, model, rows) };
        });
        return withEtag(reply, model, rows[0]).send(out[0]);
      }
      case 'DELETE': {
        // NetBox 4.4 takes a delete's changelog_message from its body
        const message = deleteMessageOf(request.body);
        const opts = { ifMatch: ifMatchOf(request), messages: message ? new Map([[id, message]]) : undefined };
        await inTransaction(await preloadForWrite(rc, model), (trx) => deleteObjects(trx, model, [id], false, opts));
        return reply.code(204).send();
      }
      default:
        throw Errors.methodNotAllowed(method);
    }
  };

  // the same handlers under every app serving the model (ModelDef.alsoAt)
  for (const appName of Registry.appsOf(model)) {
    const base = `/api/${appName}/${model.path}/`;
    app.route({ method: methodsOf(listAllow), url: base, handler: list, config: { allow: listAllow } });
    app.route({ method: methodsOf(detailAllow), url: `${base}:id/`, handler: detail, config: { allow: detailAllow } });
  }
}
