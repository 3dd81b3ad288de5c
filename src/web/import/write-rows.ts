/**
 * An import's rows through the REST write path, inside the caller's transaction: new rows in one
 * createObjects batch, `id` rows in one updateObjects batch, each behind a savepoint. The batch
 * create's validation answers one error dict per item, aligned with the rows; a bulk update's
 * names its first failing item; any other failure (a database constraint) is found by halving the
 * batch (bisect), so every failing row is named. Rows naming objects other rows make are written in
 * later waves (resolve-names.ts defers them).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { createObjects, updateObjects } from '../../core/crud/write-service.js';
import { ApiError } from '../../core/errors.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import type { ImportColumn } from './import-columns.js';
import { addError, type PendingRow, resolveNames } from './resolve-names.js';
import { databaseRefusal, rowErrorsFrom } from './row-errors.js';
import type { ImportResult, RowOutcome } from './run-import.js';

/**
 * The rows whose names all resolved, then, as long as that makes progress, the rows that named
 * objects those rows made (resolved again inside the transaction, which sees them). Deferred
 * names that never appear are the rows' errors.
 */
export async function writeInWaves(
  trx: RequestContext,
  model: ModelDef,
  refColumns: ImportColumn[],
  provided: Map<string, Set<string>>,
  rows: Array<{ pending: PendingRow }>,
  outcomes: RowOutcome[],
  result: ImportResult,
) {
  let wave = rows.map((_, i) => i).filter((i) => !rows[i]!.pending.deferred);
  for (;;) {
    await writeRows(trx, model, rows, wave, outcomes, result);
    const waiting = rows.flatMap((r, i) => (r.pending.deferred ? [i] : []));
    if (!waiting.length) return;
    const pending = waiting.map((i) => rows[i]!.pending);
    const before = pending.map((p) => p.deferred!.size);
    await resolveNames(trx, refColumns, pending, { provided, deferredOnly: true });
    wave = waiting.filter((i) => !rows[i]!.pending.deferred);
    const progressed = wave.length > 0 || pending.some((p, k) => (p.deferred?.size ?? 0) < before[k]!);
    if (!progressed) {
      // nothing more can be made: what is still deferred names nothing
      await resolveNames(trx, refColumns, pending, { deferredOnly: true });
      wave = waiting;
    }
  }
}

type Indexed = { i: number; body: Row };

/** what a row's body holds besides the model's fields */
const WRITTEN_TOO = new Set(['id', 'tags', 'custom_fields']);

async function writeRows(
  trx: RequestContext,
  model: ModelDef,
  rows: Array<{ pending: PendingRow }>,
  wave: number[],
  outcomes: RowOutcome[],
  result: ImportResult,
) {
  const creates: Indexed[] = [];
  const updates: Indexed[] = [];
  for (const i of wave) {
    const r = rows[i]!;
    // a row whose id names nothing cannot be tried; one whose related names failed is still tried
    // without those columns, so its other errors show too (the transaction is then rolled back)
    const failed = r.pending.errors;
    if (failed.has('id')) continue;
    // a column that only narrowed a lookup (a device's manufacturer) is no field to write
    const written = ([k]: [string, unknown]) => !failed.has(k) && (k in model.fields || WRITTEN_TOO.has(k));
    const body = Object.fromEntries(Object.entries(r.pending.values).filter(written));
    (r.pending.values.id === undefined ? creates : updates).push({ i, body });
  }
  const create = (items: Indexed[]) =>
    createObjects(
      trx,
      model,
      items.map((c) => c.body),
      true,
    );
  const update = (items: Indexed[]) =>
    updateObjects(
      trx,
      model,
      items.map((u) => u.body),
      'update',
      true,
    );
  if (creates.length) result.created.push(...(await bisect(trx, creates, outcomes, create)));
  if (updates.length) result.updated.push(...(await bisect(trx, updates, outcomes, update)));
}

function isAligned(err: unknown, n: number): err is ApiError {
  return err instanceof ApiError && err.statusCode === 400 && Array.isArray(err.body) && err.body.length === n;
}

/** a write's errors into the row's, but for the columns that failed before the write (left out of it) */
function mergeErrors(outcome: RowOutcome, body: unknown) {
  const before = new Set(outcome.errors.keys());
  for (const [column, messages] of rowErrorsFrom(body))
    if (!before.has(column)) for (const m of messages) addError(outcome.errors, column, m);
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** runs `fn` behind a savepoint: a failure rolls back only what it wrote, and the transaction goes on */
async function inSavepoint<T>(trx: RequestContext, name: string, fn: () => Promise<T>): Promise<Attempt<T>> {
  await sql`savepoint ${sql.raw(name)}`.execute(trx.q);
  try {
    const value = await fn();
    await sql`release savepoint ${sql.raw(name)}`.execute(trx.q);
    return { ok: true, value };
  } catch (error) {
    await sql`rollback to savepoint ${sql.raw(name)}`.execute(trx.q);
    return { ok: false, error };
  }
}

/**
 * Writes the items as one batch behind a savepoint. A bulk create's validation error is aligned with
 * the items: each row gets its own. A bulk update's names its first failing item (ApiError.itemIndex,
 * set by the write service): that row gets it and the others are tried again without it. Any other
 * failure (a database constraint) splits the batch in halves, each tried the same way, down to the
 * single rows that fail: k failing rows among n cost k + 1 batches when the write names them, about
 * k log2 n when it does not, never n. The ids of the rows written; what failed is rolled back to
 * its savepoint.
 */
async function bisect(
  trx: RequestContext,
  items: Indexed[],
  outcomes: RowOutcome[],
  write: (items: Indexed[]) => Promise<Row[]>,
): Promise<number[]> {
  let batch = items;
  for (;;) {
    const done = await inSavepoint(trx, 'import_batch', () => write(batch));
    if (done.ok) return done.value.map((r) => Number(r.id));
    const err = done.error;
    if (isAligned(err, batch.length)) {
      (err.body as unknown[]).forEach((e, k) => mergeErrors(outcomes[batch[k]!.i]!, e));
      return [];
    }
    const named = err instanceof ApiError && err.statusCode < 500 ? err.itemIndex : undefined;
    if (named !== undefined && batch[named] && batch.length > 1) {
      mergeErrors(outcomes[batch[named]!.i]!, (err as ApiError).body);
      batch = batch.filter((_, k) => k !== named);
      continue;
    }
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      const left = await bisect(trx, batch.slice(0, half), outcomes, write);
      return [...left, ...(await bisect(trx, batch.slice(half), outcomes, write))];
    }
    const refusal = databaseRefusal(err);
    if (err instanceof ApiError && err.statusCode < 500) mergeErrors(outcomes[batch[0]!.i]!, err.body);
    else if (refusal) addError(outcomes[batch[0]!.i]!.errors, '', refusal);
    else throw err;
    return [];
  }
}
