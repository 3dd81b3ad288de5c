/**
 * The one write path's deletes (write-service.ts has creates and updates): the objects locked,
 * everything that cascades from them collected (delete-collector.ts), dependents deleted first,
 * each deletion logged in the caller's transaction.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import { requirePermission } from '../auth/permissions.js';
import type { ModelDef, Row } from '../model/types.js';
import { recordChanges, snapshot } from './changelog.js';
import { collectDeletion } from './delete-collector.js';
import { assertIfMatch } from './etag.js';

/**
 * spec: Operations rules 1 - a bulk update or delete naming an id that does not exist, or one the
 * user may not reach (outside the action's constraints, which NetBox answers 404 for), aborts the
 * whole request, replacing NetBox's lenient skip. A bulk update may name an object once (which of
 * two sets of values would win is not for us to guess). Answers an array aligned with the input.
 */
export function assertBulkIds(ids: number[], found: Set<number>, allowRepeats: boolean): void {
  const seen = new Set<number>();
  const errors = ids.map((id) => {
    if (!found.has(id)) return { id: [`Invalid pk "${id}" - object does not exist.`] };
    if (seen.has(id) && !allowRepeats) return { id: [`Duplicate id ${id}: a bulk update lists an object once.`] };
    seen.add(id);
    return {};
  });
  if (errors.some((e) => 'id' in e)) throw Errors.validation(errors);
}

interface DeleteOptions {
  /** the `changelog_message` of objects named, by id (changelog-message.ts) */
  messages?: ReadonlyMap<number, string>;
  /** a single delete's If-Match tags (etag.ts), checked against the locked row */
  ifMatch?: string[] | null;
}

/** Deletes objects by id: a 404 for a single delete out of reach; in bulk, any such id fails the whole request. */
export async function deleteObjects(
  rc: RequestContext,
  model: ModelDef,
  ids: number[],
  bulk: boolean,
  opts: DeleteOptions = {},
): Promise<void> {
  const scope = await requirePermission(rc, model, 'delete');
  const found = await sql<Row>`select * from ${sql.table(model.table)} as t where t.id = any(${ids}::bigint[])
    ${scope ? sql`and ${scope}` : sql``} for update`.execute(rc.q);
  if (!bulk && found.rows.length === 0) throw Errors.notFound();
  if (!bulk) assertIfMatch(model, found.rows[0]!, opts.ifMatch);
  // deleting an object listed twice deletes it once: there is nothing to choose between
  assertBulkIds(ids, new Set(found.rows.map((r) => Number(r.id))), true);
  await deleteRows(rc, model, found.rows, opts.messages);
}

/** Deletes stored rows and everything that cascades from them, logging each deletion. */
async function deleteRows(
  rc: RequestContext,
  model: ModelDef,
  rows: Row[],
  messages?: ReadonlyMap<number, string>,
): Promise<void> {
  if (rows.length === 0) return;
  const plan = await collectDeletion(rc, model, rows);
  const removed = new Map<string, Set<number>>();
  for (const step of plan) {
    const set = removed.get(step.model.name) ?? new Set();
    for (const r of step.rows) set.add(Number(r.id));
    removed.set(step.model.name, set);
  }
  const deleting = (name: string, id: number) => removed.get(name)?.has(id) === true;
  // dependents first, so nothing is left pointing at a deleted row
  for (const step of plan) {
    const ids = step.rows.map((r) => Number(r.id));
    if (step.model.changelog) {
      const snaps = await snapshot(rc, step.model, step.rows);
      // only the objects the request named carry its message, not what their deletion cascades to
      const named = step.model === model && messages?.size ? messages : null;
      await recordChanges(
        rc,
        step.model,
        step.rows.map((row) => ({
          action: 'delete',
          row,
          pre: snaps.get(Number(row.id))!,
          post: null,
          message: named?.get(Number(row.id)),
        })),
      );
    }
    if (step.model.tags) {
      await sql`delete from extras_taggeditem where content_type = ${step.model.name} and object_id = any(${ids}::bigint[])`.execute(
        rc.q,
      );
    }
    await sql`delete from ${sql.table(step.model.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
    await step.model.hooks.afterDelete?.({ rc, rows: step.rows, deleting });
  }
}
