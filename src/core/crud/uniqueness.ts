/**
 * Uniqueness checks before writing, for NetBox's messages (unique-messages.ts): single-field (`site with this Name
 * already exists.`, one query per field for the whole batch) and composite (`__all__`). Items of
 * the same batch are checked against each other too. The database constraints stay the last word.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { columnOf } from '../model/define-model.js';
import type { FieldDef, ModelDef, UniqueTogether } from '../model/types.js';
import type { PreparedItem } from './prepare.js';
import { columnTypes } from './column-types.js';
import { uniqueFieldMessage, uniqueTogetherMessage } from './unique-messages.js';

/** column types compared as text (so a case-insensitive constraint lowers them) */
const TEXT_TYPES = new Set(['varchar', 'text', 'bpchar', 'citext']);

/**
 * How a column is compared with text values so that its index serves the lookup (column-types.ts):
 * a text column as text (lowered when case-insensitive, as such indexes are: lower(name)), any
 * other column in its own type (site_id = '3'::int8, not site_id::text = '3').
 */
function comparison(column: string, type: string | undefined, ci: boolean): { col: RawBuilder<unknown>; type: string } {
  if (!type || TEXT_TYPES.has(type))
    return { col: ci ? sql`lower(${sql.ref(column)}::text)` : sql`${sql.ref(column)}::text`, type: 'text' };
  return { col: sql.ref(column), type };
}

const norm = (v: unknown, ci: boolean) => (ci && typeof v === 'string' ? v.toLowerCase() : String(v));

async function checkField(rc: RequestContext, model: ModelDef, key: string, f: FieldDef, items: PreparedItem[]) {
  const ci = typeof f.unique === 'object' && !!f.unique.ci;
  const column = columnOf(key, f);
  // every unique field is checked, so one answer names all of them (as DRF does)
  // a value already refused (not a number, say) is not looked up: it may not even cast to the column's type
  const candidates = items.filter(
    (i) => column in i.values && i.values[column] !== null && i.values[column] !== '' && !i.errors.errors[key],
  );
  if (!candidates.length) return;
  const values = [...new Set(candidates.map((i) => norm(i.values[column], ci)))];
  const c = sql.ref(column);
  const { col, type } = comparison(column, (await columnTypes(rc)).get(`${model.table}.${column}`), ci);
  const match = sql`${col} = any(${values}::${sql.raw(`"${type}"`)}[])`;
  const found = await sql<{ id: number; v: string }>`select id, ${ci ? sql`lower(${c}::text)` : sql`${c}::text`} as v
    from ${sql.table(model.table)} where ${match}`.execute(rc.q);
  const owner = new Map<string, number>();
  for (const r of found.rows) owner.set(r.v, Number(r.id));
  const message = uniqueFieldMessage(model, key, rc.dialect);
  const seen = new Map<string, PreparedItem>();
  for (const item of candidates) {
    const v = norm(item.values[column], ci);
    const existing = owner.get(v);
    // an update may keep its own value, unless another item of the batch takes it
    if ((existing !== undefined && existing !== item.id) || seen.has(v)) item.errors.add(key, message);
    seen.set(v, item);
  }
}

/**
 * `list.map(fn)` built with push. V8's optimised code makes map's result a holey array where the
 * unoptimised code makes a packed one; a function that reads its own mapped arrays is optimised
 * for the packed shape, meets the holey one on its first optimised run, and is thrown away and
 * optimised again without end (checkTogether below). Pushed onto `[]`, the shape is the same in
 * both.
 */
function mapped<T, U>(list: readonly T[], fn: (value: T, i: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < list.length; i++) out.push(fn(list[i]!, i));
  return out;
}

/**
 * One composite constraint for the whole batch: one query finds every stored row holding any of
 * the items' value tuples (a bulk create of 100 devices asks once, not 100 times).
 *
 * Its arrays are built with push (`mapped`, the loops): with map, V8 optimised it, threw the
 * optimised code away at an array of the other shape, and optimised it again, without end
 * (~53 ms of compiling every ~30 bulk creates of 100 interfaces on a warm server, a sixth of a
 * core under a bulk load).
 */
async function checkTogether(rc: RequestContext, model: ModelDef, u: UniqueTogether, items: PreparedItem[]) {
  const ci = !!u.ci;
  const cols: string[] = [];
  for (const k of u.fields) cols.push(columnOf(k, model.fields[k]!));
  const nullCols: string[] = [];
  for (const k of u.whenNull ?? []) nullCols.push(columnOf(k, model.fields[k]!));
  // fields named in whenNull too are compared as null, with the other whenNull ones
  const valueCols: string[] = [];
  for (const c of cols) if (!nullCols.includes(c)) valueCols.push(c);
  const wanted: Array<{ item: PreparedItem; key: string; vals: string[] }> = [];
  nextItem: for (const item of items) {
    if (!item.errors.empty) continue;
    // the value the row will hold: written, else stored (copying every column of every
    // item of a bulk create into a merged object was most of this loop's time)
    const { values, before } = item;
    let touched = item.id === null;
    for (const c of cols) touched ||= c in values;
    if (!touched) continue;
    for (const c of nullCols) if ((c in values ? values[c] : before?.[c]) != null) continue nextItem;
    const vals: string[] = [];
    for (const c of valueCols) {
      const v = c in values ? values[c] : before?.[c];
      if (v == null) continue nextItem;
      vals.push(norm(v, ci));
    }
    wanted.push({ item, key: vals.join('\u0000'), vals });
  }
  if (!wanted.length) return;
  const exprs = mapped(valueCols, (c) => (ci ? sql`lower(${sql.ref(c)}::text)` : sql`${sql.ref(c)}::text`));
  const conds = mapped(nullCols, (c) => sql`${sql.ref(c)} is null`);
  if (exprs.length) {
    const types = await columnTypes(rc);
    const arrays = mapped(valueCols, (_, i) => sql`${mapped(wanted, (w) => w.vals[i]!)}::text[]`);
    const sides = mapped(valueCols, (c, i) => {
      const { col, type } = comparison(c, types.get(`${model.table}.${c}`), ci);
      return { col, val: type === 'text' ? sql.ref(`u.u${i}`) : sql`${sql.ref(`u.u${i}`)}::${sql.raw(`"${type}"`)}` };
    });
    const names = mapped(valueCols, (_, i) => sql.ref(`u${i}`));
    conds.push(
      sql`(${sql.join(mapped(sides, (x) => x.col))}) in (select ${sql.join(mapped(sides, (x) => x.val))} from unnest(${sql.join(arrays)}) as u(${sql.join(names)}))`,
    );
  }
  const found = await sql<
    Record<string, unknown>
  >`select id${exprs.length ? sql`, ${sql.join(mapped(exprs, (e, i) => sql`${e} as ${sql.ref(`v${i}`)}`))}` : sql``}
    from ${sql.table(model.table)} where ${sql.join(conds, sql` and `)}`.execute(rc.q);
  const owners = new Map<string, number[]>();
  for (const r of found.rows) {
    let key = '';
    for (let i = 0; i < valueCols.length; i++) key += (i ? '\u0000' : '') + String(r[`v${i}`]);
    const ids = owners.get(key);
    if (ids) ids.push(Number(r.id));
    else owners.set(key, [Number(r.id)]);
  }
  const seen = new Set<string>();
  for (const { item, key } of wanted) {
    // an update may keep its own values, unless another item of the batch takes them
    const ids = owners.get(key);
    let taken = seen.has(key);
    if (ids) for (const id of ids) taken ||= id !== item.id;
    if (taken) item.errors.add('__all__', uniqueTogetherMessage(model, u));
    seen.add(key);
  }
}

export async function checkUniqueness(rc: RequestContext, model: ModelDef, items: PreparedItem[]): Promise<void> {
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.unique) await checkField(rc, model, key, f, items);
  }
  for (const u of model.uniqueTogether) await checkTogether(rc, model, u, items);
}
