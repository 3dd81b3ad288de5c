/**
 * An import's related columns, from names to ids, for all rows at once: one statement per target
 * model and attribute (core/crud/lookup-by-attribute.ts), within the user's view permission, never
 * one per row. A purely numeric value that names nothing by the attribute is taken as an id. A name
 * is looked for within the row's other related columns that the target also has (a rack or
 * location within the row's site, an interface's parent or LAG within its device); one still
 * shared, or one that names nothing, is that row's error under the column. A name that another row of the
 * same import gives a new object (a parent location above its children, a LAG above its members)
 * is deferred: run-import.ts writes that row first and resolves the name again.
 */
import type { RequestContext } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import { type NamedObject, objectsByAttribute } from '../../core/crud/lookup-by-attribute.js';
import type { ImportColumn } from './import-columns.js';

export type RowErrors = Map<string, string[]>;

export interface PendingRow {
  /** the row's values as the REST body takes them; related columns still names until resolved */
  values: Record<string, unknown>;
  errors: RowErrors;
  /** columns naming an object another row of this import makes: resolved once that row is written */
  deferred?: Set<string>;
}

export interface ResolveOptions {
  /** per column key, the names rows of this import give objects of the column's target (a parent made above) */
  provided?: Map<string, Set<string>>;
  /** resolve only each row's deferred columns (a later pass, once the rows they name are written) */
  deferredOnly?: boolean;
}

export function addError(errors: RowErrors, column: string, message: string): void {
  const list = errors.get(column);
  if (list) list.push(message);
  else errors.set(column, [message]);
}

interface Lookup {
  col: ImportColumn;
  /** the row's other single related columns pointing at a model the target also has an fk to */
  narrowers: ImportColumn[];
  byName: Map<string, NamedObject[]>;
  byId: Map<string, NamedObject[]>;
  /** why the column cannot be resolved at all (no view permission on the target) */
  refused?: string;
  /** names other rows of this import give new objects of the target */
  provided?: Set<string>;
}

const isId = (s: string) => /^\d+$/.test(s) && Number.isSafeInteger(Number(s));

/** a JSON or YAML value naming its object by a dictionary of attributes, which the write path resolves itself */
const isDict = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

function namesOf(v: unknown): string[] {
  const all = Array.isArray(v) ? v : [v];
  return all.filter((x) => x !== null && x !== undefined && !isDict(x)).map((x) => String(x));
}

/** replaces each related column's names by ids in every row, or adds the row's error */
export async function resolveNames(
  rc: RequestContext,
  columns: ImportColumn[],
  rows: PendingRow[],
  opts: ResolveOptions = {},
): Promise<void> {
  const registry = rc.app.registry;
  const refCols = columns.filter((c) => c.ref);
  const lookups: Lookup[] = [];
  for (const col of refCols) {
    const target = registry.get(col.ref!.to);
    const narrowers = refCols.filter((d) => {
      const f = target.fields[d.key];
      return d !== col && !d.ref!.many && f?.kind === 'fk' && f.to === d.ref!.to;
    });
    const names = new Set<string>();
    for (const r of rows)
      if (!opts.deferredOnly || r.deferred?.has(col.key)) for (const n of namesOf(r.values[col.key])) names.add(n);
    const all = [...names];
    const fks = narrowers.map((d) => d.key);
    const lookup: Lookup = {
      col,
      narrowers,
      byName: new Map(),
      byId: new Map(),
      provided: opts.provided?.get(col.key),
    };
    try {
      if (col.ref!.attr !== 'id') lookup.byName = await objectsByAttribute(rc, target, col.ref!.attr, all, fks);
      const ids = all.filter((n) => isId(n) && !lookup.byName.has(n));
      lookup.byId = await objectsByAttribute(rc, target, 'id', ids, fks);
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 403) throw err;
      lookup.refused = `You may not view ${target.verboseNamePlural}.`;
    }
    lookups.push(lookup);
  }
  // columns others narrow by come first (a site before the rack named within it)
  lookups.sort((a, b) => a.narrowers.length - b.narrowers.length);
  for (const row of rows) {
    const only = opts.deferredOnly ? row.deferred : undefined;
    if (opts.deferredOnly) row.deferred = undefined;
    for (const l of lookups) if (!only || only.has(l.col.key)) resolveColumn(rc, l, row);
  }
}

function resolveColumn(rc: RequestContext, l: Lookup, row: PendingRow): void {
  const { col } = l;
  const value = row.values[col.key];
  if (value === undefined || value === null || value === '' || isDict(value)) return;
  if (l.refused) {
    addError(row.errors, col.name, l.refused);
    return;
  }
  if (col.ref!.many && !Array.isArray(value)) {
    addError(row.errors, col.name, 'A list of names is expected.');
    return;
  }
  const what = rc.app.registry.get(col.ref!.to).verboseName;
  const by = col.ref!.attr === 'id' ? 'id' : col.ref!.attr;
  const one = (name: unknown): unknown => {
    if (isDict(name)) return name;
    const text = String(name);
    let found = l.byName.get(text) ?? l.byId.get(text) ?? [];
    if (!col.ref!.many) found = narrowed(l, row, found);
    if (found.length === 1) return found[0]!.id;
    if (!found.length && l.provided?.has(text)) {
      (row.deferred ??= new Set()).add(col.key);
      return name;
    }
    addError(
      row.errors,
      col.name,
      found.length
        ? `Several ${what} objects have ${by} "${text}".`
        : `No ${what} with ${by} "${text}" (or you may not view it).`,
    );
    return null;
  };
  if (col.ref!.many) {
    const ids = (value as unknown[]).map(one);
    if (ids.every((id) => id !== null)) row.values[col.key] = ids;
  } else {
    const id = one(value);
    if (id !== null) row.values[col.key] = id;
  }
}

/**
 * The candidates within what the row's other columns resolved to: one set to another object is
 * out (a rack of another site, a LAG of another device); one that leaves it unset stays (a
 * cluster of no site), unless a candidate matches it exactly.
 */
function narrowed(l: Lookup, row: PendingRow, found: NamedObject[]): NamedObject[] {
  let out = found;
  for (const d of l.narrowers) {
    const id = row.values[d.key];
    if (typeof id !== 'number') continue;
    out = out.filter((o) => o.fks[d.key] === id || o.fks[d.key] === null);
    const exact = out.filter((o) => o.fks[d.key] === id);
    if (exact.length) out = exact;
  }
  return out;
}
