/**
 * The rows of an import that update (`id` given): an id that names no object the user may view is
 * that row's error, and the objects' displays name them in the preview ("update <object>").
 */
import type { RequestContext } from '../../core/context.js';
import { objectsByAttribute } from '../../core/crud/lookup-by-attribute.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { addError, type PendingRow } from './resolve-names.js';
import type { RowOutcome } from './run-import.js';

/** rows updating at most this many objects show each one's display; more show their ids */
const LABELLED_UPDATES = 1000;

/** the displays of the objects `id` rows update, read as the REST list's brief form */
export async function labelsOf(rc: RequestContext, model: ModelDef, outcomes: RowOutcome[]): Promise<void> {
  const ids = [...new Set(outcomes.flatMap((o) => (o.id !== undefined && !o.errors.size ? [o.id] : [])))];
  if (!ids.length || ids.length > LABELLED_UPDATES) return;
  const params = new Map([
    ['id', ids.map(String)],
    ['brief', ['true']],
    ['limit', [String(ids.length)]],
  ]);
  const list = await listObjects(rc, model, params);
  const shown = new Map(list.results.map((r) => [Number(r.id), String(r.display ?? r.id)]));
  for (const o of outcomes) if (o.id !== undefined) o.label = shown.get(o.id);
}

/** an `id` that names no object the user may view is that row's error */
export async function checkIds(rc: RequestContext, model: ModelDef, rows: Array<{ pending: PendingRow }>) {
  const ids = rows.map((r) => r.pending.values.id);
  const found = await objectsByAttribute(rc, model, 'id', ids.filter((id) => typeof id === 'number').map(String));
  for (const r of rows) {
    const id = r.pending.values.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
      addError(r.pending.errors, 'id', 'A whole number is expected.');
    else if (!found.has(String(id))) addError(r.pending.errors, 'id', `No ${model.verboseName} with id ${id}.`);
  }
}
