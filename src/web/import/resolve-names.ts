/**
 * An import's related columns, from names to ids, for all rows at once: one statement per target
 * model and attribute (core/crud/lookup-by-attribute.ts), within the user's view permission, never
 * one per row. A purely numeric value that names nothing by the attribute is taken as an id. A name
 * several objects share is narrowed by the row's other related columns that the target also has
 * (a rack or location by the row's site, an interface's parent by its device); one still shared,
 * or one that names nothing, is that row's error under the column.
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
}

const isId = (s: string) => /^\d+$/.test(s) && Number.isSafeInteger(Number(s));

/** a JSON or YAML value naming its object by a dictionary of attributes, which the write path resolves itself */
const isDict = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

function namesOf(v: unknown): string[] {
  const all = Array.isArray(v) ? v : [v];
  return all.filter((x) => x !== null && x !== undefined && !isDict(x)).map((x) => String(x));
}

/** replaces each related column's names by ids in every row, or adds the row's error */
export async function resolveNames(rc: RequestContext, columns: ImportColumn[], rows: PendingRow[]): Promise<void> {
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
    for (const r of rows) for (const n of namesOf(r.values[col.key])) names.add(n);
    const all = [...names];
    const fks = narrowers.map((d) => d.key);
    const lookup: Lookup = { col, narrowers, byName: new Map(), byId: new Map() };
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
  for (const row of rows) for (const l of lookups) resolveColumn(rc, l, row);
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
    if (found.length > 1 && !col.ref!.many) found = narrowed(l, row, found);
    if (found.length === 1) return found[0]!.id;
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

/** the candidates whose fks match what the row's other columns resolved to */
function narrowed(l: Lookup, row: PendingRow, found: NamedObject[]): NamedObject[] {
  let out = found;
  for (const d of l.narrowers) {
    const id = row.values[d.key];
    if (typeof id !== 'number') continue;
    const within = out.filter((o) => o.fks[d.key] === id);
    if (within.length) out = within;
  }
  return out;
}
