/**
 * The stored columns a brief or nested representation reads, so a page or a nested load selects
 * those instead of `*`. `prefixes/?brief=1&limit=1000` spent three quarters of its
 * time parsing and collecting some twenty columns per row that the form (id, url, family, prefix)
 * never shows; selecting the two it reads took it from 4.7 to 1.0 ms of CPU per request.
 *
 * The set is derived from the declaration: the shown fields' columns, the columns the model's
 * `display` reads (traced once, below) and, for a model with a represent hook, the columns the
 * hook declares it reads (`representReads`). A model whose hook declares nothing, or a form that
 * shows a key this cannot place, keeps `*`: narrowing is only ever done where it is known safe.
 */
import type { ModelDef } from '../model/types.js';
import type { RenderPlan } from './plan.js';

const memo = new WeakMap<RenderPlan, string[] | null>();

/** The columns to select for rows rendered with `plan`, or null for all of them. */
export function columnsFor(model: ModelDef, plan: RenderPlan): string[] | null {
  let cols = memo.get(plan);
  if (cols === undefined) {
    cols = deriveColumns(model, plan);
    memo.set(plan, cols);
  }
  return cols;
}

function deriveColumns(model: ModelDef, plan: RenderPlan): string[] | null {
  if (plan.mode === 'full') return null;
  if (model.hooks.represent && !model.representReads) return null;
  const display =
    plan.mode === 'brief' && plan.dialect === '3.4' && model.briefWithoutDisplay ? [] : displayReads(model);
  // a name that is not a declared column (a value the row carries from elsewhere) keeps `*`
  const known = declaredColumns(model);
  if (!display?.every((c) => known.has(c))) return null;
  const cols = new Set<string>(['id', ...display, ...(model.representReads ?? [])]);
  for (const k of plan.keys) {
    const f = model.fields[k];
    if (!f) {
      // counts and _depth come from their own aggregates; timestamps are columns
      if (k in model.counts || k === '_depth') continue;
      // a key the represent hook adds (declared in `represented`) reads what representReads names
      if (model.represented && k in model.represented) continue;
      if (model.timestamps && (k === 'created' || k === 'last_updated')) cols.add(k);
      else return null;
    } else if (f.kind === 'fk') cols.add(`${k}_id`);
    else if (f.kind === 'generic') cols.add(f.generic!.type).add(f.generic!.id);
    else if (f.kind === 'm2m') continue;
    else if (f.kind === 'computed') {
      // a computed key is a column only when it names one; otherwise its hook must have declared it
      if (f.column) cols.add(f.column);
      else if (!model.representReads) return null;
    } else if (f.notStored) continue;
    else cols.add(k);
  }
  return [...cols];
}

/** The columns the declaration names: id, timestamps, stored fields, fk and generic columns. */
function declaredColumns(model: ModelDef): Set<string> {
  const out = new Set<string>(['id']);
  if (model.timestamps) out.add('created').add('last_updated');
  for (const [k, f] of Object.entries(model.fields)) {
    if (f.kind === 'fk') out.add(`${k}_id`);
    else if (f.kind === 'generic') out.add(f.generic!.type).add(f.generic!.id);
    else if (f.kind === 'computed') {
      if (f.column) out.add(f.column);
    } else if (f.kind !== 'm2m' && !f.notStored) out.add(k);
  }
  return out;
}

/**
 * The row properties `display` reads, traced by calling it on two recording rows: one whose every
 * value is a non-empty string and one whose every value is null, so both sides of the usual
 * `row.name ? … : …` are seen. A display that enumerates the row or throws on either gives null.
 */
function displayReads(model: ModelDef): string[] | null {
  const read = new Set<string>();
  let enumerates = false;
  const recording = (value: unknown) =>
    new Proxy({} as Record<string, unknown>, {
      get(_t, key) {
        if (typeof key === 'string') read.add(key);
        return value;
      },
      has(_t, key) {
        if (typeof key === 'string') read.add(key);
        return true;
      },
      ownKeys() {
        enumerates = true;
        return [];
      },
    });
  try {
    model.display(recording('1'));
    model.display(recording(null));
  } catch {
    return null;
  }
  return enumerates ? null : [...read];
}
