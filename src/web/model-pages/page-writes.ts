/**
 * Pages write through the REST API's own path: the same transaction, write service, permission
 * checks, validation, change records (with the request id) and events. Nothing here writes SQL.
 */
import type { RequestContext } from '../../core/context.js';
import { preloadForWrite } from '../../core/cache/write-preload.js';
import { inTransaction } from '../../core/crud/routes.js';
import { createObjects, deleteObjects, updateObjects } from '../../core/crud/write-service.js';
import type { ModelDef, Row } from '../../core/model/types.js';

/** the request as a page's write: its hooks may apply the pages' own rules (FieldDef.pageWrite) */
export const fromPage = (rc: RequestContext): RequestContext => ({ ...rc, viaPage: true });

/** creates one object from an API-shaped body; its id */
export async function createFromPage(rc: RequestContext, model: ModelDef, body: Row): Promise<number> {
  const rows = await inTransaction(await preloadForWrite(fromPage(rc), model), (trx) =>
    createObjects(trx, model, [body], false, { endsTransaction: true }),
  );
  return Number(rows[0]!.id);
}

/**
 * Creates one object and, in the same transaction, what `more` writes beside it (a clone's
 * components): both or neither
 */
export async function createWithMore(
  rc: RequestContext,
  model: ModelDef,
  body: Row,
  more: (trx: RequestContext, id: number) => Promise<unknown>,
): Promise<number> {
  return inTransaction(await preloadForWrite(fromPage(rc), model), async (trx) => {
    const [row] = await createObjects(trx, model, [body], false);
    await more(trx, Number(row!.id));
    return Number(row!.id);
  });
}

/** a PATCH of one object from an API-shaped body */
export async function updateFromPage(rc: RequestContext, model: ModelDef, id: number, body: Row): Promise<void> {
  await inTransaction(await preloadForWrite(fromPage(rc), model), (trx) =>
    updateObjects(trx, model, [{ ...body, id }], 'update', false),
  );
}

/** a PATCH of several objects in one request (each item names its id) */
export async function updateManyFromPage(rc: RequestContext, model: ModelDef, items: Row[]): Promise<void> {
  await inTransaction(await preloadForWrite(rc, model), (trx) => updateObjects(trx, model, items, 'update', true));
}

export async function deleteFromPage(rc: RequestContext, model: ModelDef, ids: number[]): Promise<void> {
  await inTransaction(await preloadForWrite(fromPage(rc), model), (trx) =>
    deleteObjects(trx, model, ids, ids.length > 1),
  );
}
