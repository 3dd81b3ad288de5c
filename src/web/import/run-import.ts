import { preloadForWrite } from '../../core/cache/write-preload.js';
import { fromPage } from '../model-pages/page-writes.js';
import type { CustomFieldDef, RequestContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { Errors } from '../../core/errors.js';
import { otherNames } from '../../core/model/dialect.js';
import type { ModelDef } from '../../core/model/types.js';
import { can } from '../model-pages/page-shell.js';
import { fromCsv, type ImportColumn, importColumns } from './import-columns.js';
import { ImportInputError, parseRecords } from './parse-records.js';
import { type PendingRow, resolveNames, type RowErrors } from './resolve-names.js';
import { isLibraryImport, runLibraryImport } from './type-library-import.js';
import { checkIds, labelsOf } from './update-rows.js';
import { writeInWaves } from './write-rows.js';

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
  /** what the outcomes' numbers count (parse-records.ts) */
  numbering: 'row' | 'line' | 'record';
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

/** whether a parsed value holds a NUL character anywhere (JSON's \u0000), which PostgreSQL cannot store */
function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (Array.isArray(v)) return v.some(hasNul);
  if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => k.includes('\0') || hasNul(x));
  return false;
}

/** the rows as REST bodies with names still unresolved; unknown columns refuse the whole import */
function pendingRows(
  model: ModelDef,
  columns: Map<string, ImportColumn>,
  records: Array<{ row: number; values: Record<string, unknown> }>,
  numbering: 'row' | 'line' | 'record',
) {
  const csv = numbering === 'row';
  const numbered = { row: 'Row', line: 'Line', record: 'Record' }[numbering];
  const unknown = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.values)) if (!columns.has(k)) unknown.add(k);
  // NetBox 4.4's name of a renamed field (a rack's `form_factor`) is its column too
  const aliases = otherNames(model);
  for (const name of unknown) if (columns.has(aliases.get(name) ?? '')) unknown.delete(name);
  // JSON and YAML may also give custom fields as the API does: `custom_fields: {name: value}`
  if (!csv && model.customFields) unknown.delete('custom_fields');
  if (unknown.size)
    throw new ImportInputError(`Unknown column${unknown.size > 1 ? 's' : ''}: ${[...unknown].join(', ')}.`);
  return records.map((r) => {
    if (hasNul(r.values)) throw new ImportInputError(`${numbered} ${r.row}: a NUL character is not allowed.`);
    const values: Record<string, unknown> = {};
    const cf: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(r.values)) {
      if (name === 'custom_fields' && !columns.has(name)) {
        if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) Object.assign(cf, raw);
        else values.custom_fields = raw;
        continue;
      }
      const col = columns.get(name) ?? columns.get(aliases.get(name)!)!;
      // an id written as a string of digits in JSON or YAML is the same id
      const text = typeof raw === 'string' && (csv || col.name === 'id');
      const v = text ? fromCsv(col, raw) : raw;
      if (col.cf) cf[col.key] = v;
      else values[col.key] = v;
    }
    if (Object.keys(cf).length && values.custom_fields === undefined) values.custom_fields = cf;
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
  // PostgreSQL stores no NUL character in text: refused here, with its line, rather than by a statement
  const nul = opts.text.indexOf('\0');
  if (nul >= 0)
    throw new ImportInputError(`Line ${opts.text.slice(0, nul).split('\n').length}: a NUL character is not allowed.`);
  const parsed = parseRecords(opts.text, opts.format, opts.csvDelimiter);
  checkCaps(rc, '', parsed.records.length);
  if (!parsed.records.length) throw new ImportInputError('The data has no rows to import.');
  if (isLibraryImport(model, parsed)) return runLibraryImport(rc, model, parsed, opts.apply);
  const columns = importColumns(rc.app.registry, model, cfs);
  const rows = pendingRows(model, columns, parsed.records, parsed.numbering);
  const allowed = await can(rc, model);
  const updating = rows.filter((r) => r.pending.values.id !== undefined);
  if ((updating.length < rows.length && !allowed.add) || (updating.length && !allowed.change))
    throw Errors.permissionDenied();
  await checkIds(rc, model, updating);
  const used = new Set(rows.flatMap((r) => Object.keys(r.pending.values)));
  const refColumns = [...columns.values()].filter((c) => used.has(c.key) && !c.cf);
  const provided = providedNames(model, refColumns, rows);
  await resolveNames(
    rc,
    refColumns,
    rows.map((r) => r.pending),
    { provided },
  );
  const outcomes: RowOutcome[] = rows.map((r) => ({
    row: r.row,
    action: r.pending.values.id === undefined ? 'create' : 'update',
    id: r.pending.values.id as number | undefined,
    errors: r.pending.errors,
  }));
  await labelsOf(rc, model, outcomes);
  const result: ImportResult = { numbering: parsed.numbering, outcomes, written: false, created: [], updated: [] };
  try {
    await inTransaction(await preloadForWrite(fromPage(rc), model), async (trx) => {
      await writeInWaves(trx, model, refColumns, provided, rows, outcomes, result);
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

/** per column naming objects of the model imported, the names the import's own rows give them */
function providedNames(model: ModelDef, columns: ImportColumn[], rows: Array<{ pending: PendingRow }>) {
  const out = new Map<string, Set<string>>();
  for (const col of columns) {
    if (col.ref?.to !== model.name || col.ref.attr === 'id') continue;
    const names = new Set<string>();
    for (const r of rows) {
      const v = r.pending.values[col.ref.attr];
      if (v !== undefined && v !== null && r.pending.values.id === undefined) names.add(String(v));
    }
    if (names.size) out.set(col.key, names);
  }
  return out;
}
