/**
 * One stored row by id, for validation rules that look at a related object (NetBox's clean()
 * methods). By table, or by model name when the type comes from the request (a content type such as
 * `dcim.interface`): the registry gives its table, so a name is never turned into SQL by string
 * edits.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { Row } from '../model/types.js';

/**
 * The rows of a read, once per validation of a write (RequestContext.lookups): the items of a bulk
 * write ask for the same device type or rack again and again: a bulk create of 100 devices read its
 * one device type and one rack 100 times each.
 */
export function lookupAll(rc: RequestContext, query: RawBuilder<Row>): Promise<Row[]> {
  const read = async () => (await query.execute(rc.q)).rows;
  if (!rc.lookups) return read();
  const key = lookupKey(rc, query);
  let hit = rc.lookups.get(key);
  if (!hit) rc.lookups.set(key, (hit = read()));
  return hit;
}

function lookupKey(rc: RequestContext, query: RawBuilder<Row>): string {
  const compiled = query.compile(rc.q);
  return `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
}

/**
 * Reads what `read(id)` would answer for many ids at once, as the lookups of a write's validation
 * (ModelHooks.beforeValidate): `batch(ids)` selects the same columns for all of them, plus `__of`,
 * the id each row answers for. The items' own reads then find their rows (lookupAll, lookupOne); an
 * id nothing answers for reads as no row. Without it, a bulk create of 100 devices of 20 types
 * would read each type, and each rack's devices, in a statement of its own.
 */
export async function preloadLookups(
  rc: RequestContext,
  ids: Iterable<unknown>,
  read: (id: number) => RawBuilder<Row>,
  batch: (ids: number[]) => RawBuilder<Row>,
): Promise<void> {
  const lookups = rc.lookups;
  if (!lookups) return;
  const keys = new Map<number, string>();
  // each id's read compiled once (100 devices name their 20 types 100 times)
  for (const id of new Set([...ids].filter((raw) => raw != null).map(Number))) {
    if (!Number.isSafeInteger(id)) continue;
    const key = lookupKey(rc, read(id));
    if (!lookups.has(key)) keys.set(id, key);
  }
  // one item's read is as cheap as the batch
  if (keys.size < 2) return;
  const rows = batch([...keys.keys()])
    .execute(rc.q)
    .then((res) => {
      const byId = new Map<number, Row[]>();
      for (const { __of, ...row } of res.rows) {
        const list = byId.get(Number(__of)) ?? [];
        list.push(row);
        byId.set(Number(__of), list);
      }
      return byId;
    });
  for (const [id, key] of keys) {
    const hit = rows.then((byId) => byId.get(id) ?? []);
    // a failed batch fails this write (awaited below), not the process for a read nobody awaited
    hit.catch(() => undefined);
    lookups.set(key, hit);
  }
  await rows;
}

/** the first row of a read, once per validation of a write (lookupAll) */
export async function lookupOne(rc: RequestContext, query: RawBuilder<Row>): Promise<Row | undefined> {
  return (await lookupAll(rc, query))[0];
}

/** the row of `table` with this id (only `columns` when given), or undefined; a null id gives undefined */
export async function rowById(
  rc: RequestContext,
  table: string,
  id: unknown,
  columns?: readonly string[],
): Promise<Row | undefined> {
  if (id == null) return undefined;
  const what = columns?.length ? sql.join(columns.map((c) => sql.ref(c))) : sql`*`;
  return lookupOne(rc, sql<Row>`select ${what} from ${sql.table(table)} where id = ${Number(id)}`);
}

/** the row of the model named `type` with this id, or undefined (also for a type that is no model) */
export async function rowOfType(
  rc: RequestContext,
  type: unknown,
  id: unknown,
  columns?: readonly string[],
): Promise<Row | undefined> {
  const model = rc.app.registry.find(String(type));
  return model ? rowById(rc, model.table, id, columns) : undefined;
}
