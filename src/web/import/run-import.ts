/**
 * An import, dry run or committed: the data parsed into rows, each row's columns checked and its
 * related names resolved (resolve-names.ts), then every row written through the REST write path
 * (createObjects for new rows in one batch, updateObjects for `id` rows) inside one transaction.
 * A dry run, or a commit with any failing row, rolls that transaction back: nothing is written, and
 * each row's outcome says what would have happened. Errors are found per row: the batch create's
 * validation answers one error dict per item; a failure it cannot align (a database conflict) is
 * found again row by row, each behind a savepoint.
 */
import { sql } from 'kysely';
import { preloadForWrite } from '../../core/cache/write-preload.js';
import type { CustomFieldDef, RequestContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { createObjects, updateObjects } from '../../core/crud/write-service.js';
import { ApiError, Errors } from '../../core/errors.js';
import { otherNames } from '../../core/model/dialect.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { can } from '../model-pages/page-shell.js';
import { fromCsv, type ImportColumn, importColumns } from './import-columns.js';
import { ImportInputError, parseRecords } from './parse-records.js';
import { addError, type PendingRow, resolveNames, type RowErrors } from './resolve-names.js';
import { databaseRefusal, rowErrorsFrom } from './row-errors.js';
import { checkIds, labelsOf } from './update-rows.js';

export interface ImportOptions {
  text: string;
  format: string;
  csvDelimiter: string;
  /** commit when every row succeeds; false: a dry run */
  apply: boolean;
}

export interface RowOutcome {
  row: number;
  action: 'create' | 'update' | 'fail';
  /** the object an `id` row updates, and its display (when it was read) */
  id?: number;
  label?: string;
  errors: RowErrors;
}

export interface ImportResult {
  outcomes: RowOutcome[];
  /** true when the rows were written (a commit without failures) */
  written: boolean;
  created: number[];
  updated: number[];
}

class RollBack extends Error {}

function checkCaps(rc: RequestContext, text: string, rows: number): void {
  const { importMaxBytes, importMaxRows } = rc.app.config;
  if (Buffer.byteLength(text) > importMaxBytes)
    throw new ImportInputError(`The data is larger than the ${importMaxBytes} bytes one import takes.`);
  if (rows > importMaxRows)
    throw new ImportInputError(`The data has ${rows} rows; one import takes at most ${importMaxRows}.`);
}

/** the rows as REST bodies with names still unresolved; unknown columns refuse the whole import */
function pendingRows(
  model: ModelDef,
  columns: Map<string, ImportColumn>,
  records: Array<{ row: number; values: Record<string, unknown> }>,
  csv: boolean,
) {
  const unknown = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.values)) if (!columns.has(k)) unknown.add(k);
  // NetBox 4.4's name of a renamed field (a rack's `form_factor`) is its column too
  const aliases = otherNames(model);
  for (const name of unknown) if (columns.has(aliases.get(name) ?? '')) unknown.delete(name);
  if (unknown.size)
    throw new ImportInputError(`Unknown column${unknown.size > 1 ? 's' : ''}: ${[...unknown].join(', ')}.`);
  return records.map((r) => {
    const values: Record<string, unknown> = {};
    const cf: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(r.values)) {
      const col = columns.get(name) ?? columns.get(aliases.get(name)!)!;
      const v = csv && typeof raw === 'string' ? fromCsv(col, raw) : raw;
      if (col.cf) cf[col.key] = v;
      else values[col.key] = v;
    }
    if (Object.keys(cf).length) values.custom_fields = cf;
    return { row: r.row, pending: { values, errors: new Map() } as PendingRow };
  });
}

export async function runImport(
  rc: RequestContext,
  model: ModelDef,
  cfs: CustomFieldDef[],
  opts: ImportOptions,
): Promise<ImportResult> {
  checkCaps(rc, opts.text, 0);
  const parsed = parseRecords(opts.text, opts.format, opts.csvDelimiter);
  checkCaps(rc, '', parsed.records.length);
  if (!parsed.records.length) throw new ImportInputError('The data has no rows to import.');
  const columns = importColumns(rc.app.registry, model, cfs);
  const rows = pendingRows(model, columns, parsed.records, parsed.format === 'csv');
  const allowed = await can(rc, model);
  const updating = rows.filter((r) => r.pending.values.id !== undefined);
  if ((updating.length < rows.length && !allowed.add) || (updating.length && !allowed.change))
    throw Errors.permissionDenied();
  await checkIds(rc, model, updating);
  const used = new Set(rows.flatMap((r) => Object.keys(r.pending.values)));
  await resolveNames(
    rc,
    [...columns.values()].filter((c) => used.has(c.key) && !c.cf),
    rows.map((r) => r.pending),
  );
  const outcomes: RowOutcome[] = rows.map((r) => ({
    row: r.row,
    action: r.pending.values.id === undefined ? 'create' : 'update',
    id: r.pending.values.id as number | undefined,
    errors: r.pending.errors,
  }));
  await labelsOf(rc, model, outcomes);
  const result: ImportResult = { outcomes, written: false, created: [], updated: [] };
  try {
    await inTransaction(await preloadForWrite(rc, model), async (trx) => {
      await writeRows(trx, model, rows, outcomes, result);
      for (const o of outcomes) if (o.errors.size) o.action = 'fail';
      if (!opts.apply || outcomes.some((o) => o.action === 'fail')) throw new RollBack();
    });
    result.written = true;
  } catch (err) {
    if (!(err instanceof RollBack)) throw err;
    result.created = [];
    result.updated = [];
  }
  return result;
}

type Indexed = { i: number; body: Row };

async function writeRows(
  trx: RequestContext,
  model: ModelDef,
  rows: Array<{ pending: PendingRow }>,
  outcomes: RowOutcome[],
  result: ImportResult,
) {
  const creates: Indexed[] = [];
  const updates: Indexed[] = [];
  rows.forEach((r, i) => {
    // a row whose id names nothing cannot be tried; one whose related names failed is still tried
    // without those columns, so its other errors show too (the transaction is then rolled back)
    const failed = r.pending.errors;
    if (failed.has('id')) return;
    const body = failed.size
      ? Object.fromEntries(Object.entries(r.pending.values).filter(([k]) => !failed.has(k)))
      : r.pending.values;
    (r.pending.values.id === undefined ? creates : updates).push({ i, body });
  });
  if (creates.length) {
    const done = await inSavepoint(trx, 'import_creates', () =>
      createObjects(
        trx,
        model,
        creates.map((c) => c.body),
        true,
      ),
    );
    if (done.ok) result.created = done.value.map((r) => Number(r.id));
    else if (isAligned(done.error, creates.length))
      (done.error.body as unknown[]).forEach((e, k) => mergeErrors(outcomes[creates[k]!.i]!, e));
    else result.created = await oneByOne(trx, creates, outcomes, (c) => createObjects(trx, model, [c.body], false));
  }
  if (updates.length) {
    const done = await inSavepoint(trx, 'import_updates', () =>
      updateObjects(
        trx,
        model,
        updates.map((u) => u.body),
        'update',
        true,
      ),
    );
    if (done.ok) result.updated = done.value.map((r) => Number(r.id));
    else
      result.updated = await oneByOne(trx, updates, outcomes, (u) =>
        updateObjects(trx, model, [u.body], 'update', true),
      );
  }
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

/** each row on its own, to name every failing one; the rows that pass stay written */
async function oneByOne(
  trx: RequestContext,
  items: Indexed[],
  outcomes: RowOutcome[],
  write: (item: Indexed) => Promise<Row[]>,
): Promise<number[]> {
  const ids: number[] = [];
  for (const item of items) {
    const done = await inSavepoint(trx, 'import_row', () => write(item));
    if (done.ok) {
      ids.push(...(done.value as Row[]).map((r) => Number(r.id)));
      continue;
    }
    const err = done.error;
    const refusal = databaseRefusal(err);
    if (err instanceof ApiError && err.statusCode < 500) mergeErrors(outcomes[item.i]!, err.body);
    else if (refusal) addError(outcomes[item.i]!.errors, '', refusal);
    else throw err;
  }
  return ids;
}
