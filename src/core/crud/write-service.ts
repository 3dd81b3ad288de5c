/**
 * The one write path. Every create, update and delete, single or bulk, goes through these
 * functions inside the caller's transaction (rc.q), which also receives the change records.
 * Bulk input is all-or-nothing (spec: Operations rules 1): any error throws before or during the
 * transaction, and a bulk update or delete naming an object it cannot reach fails as a whole.
 */
import { errorsInDialect } from '../model/dialect.js';
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import { assertWithinConstraints, requirePermission } from '../auth/permissions.js';
import type { ModelDef, Row } from '../model/types.js';
import type { M2mMembers } from '../represent/load-related.js';
import { insertRows } from '../../db/bulk-insert.js';
import { rememberCreated } from '../represent/render-written.js';
import { countWhenCommitted, recordChanges, snapshot } from './changelog.js';
import { canCreateInOne, createInOne } from './create-in-one.js';
import { assertBulkIds } from './delete-objects.js';
import { lookupsOf, type PreparedItem, prepareItems, type WriteMode } from './prepare.js';
import { type RowUpdate, updateRows } from './update-rows.js';
import { markUntagged, writeRelations } from './write-relations.js';
import { assertIfMatch } from './etag.js';

/** per model, its inputs only hooks read (FieldDef.notStored): two models have any */
const notStoredKeys = new WeakMap<ModelDef, string[]>();

/** the values a row stores: inputs only hooks read left out (the values as they are when there are none) */
function storable(model: ModelDef, values: Row): Row {
  let keys = notStoredKeys.get(model);
  if (!keys) notStoredKeys.set(model, (keys = Object.keys(model.fields).filter((k) => model.fields[k]!.notStored)));
  // returned as is when nothing is to be dropped: copying every item's values through entries() was 3 % of a bulk
  // create's Node time
  if (!keys.length || !keys.some((k) => k in values)) return values;
  return Object.fromEntries(Object.entries(values).filter(([k]) => !keys.includes(k)));
}

/** an item's stored values as an UPDATE takes them, its JSON columns named (update-rows.ts) */
function rowUpdate(model: ModelDef, id: number, values: Row): RowUpdate {
  const out: Row = {};
  const json = new Set<string>();
  for (const [k, v] of Object.entries(storable(model, values))) {
    if (v === undefined) continue;
    const f = model.fields[k] ?? model.fields[k.replace(/_id$/, '')];
    if (k === 'custom_field_data' || f?.kind === 'json') json.add(k);
    out[k] = v;
  }
  return { id, values: out, json };
}

/** Bulk errors: an array aligned with the input ({} for good items); single: the item's errors. */
function throwIfInvalid(
  rc: RequestContext,
  model: ModelDef,
  items: PreparedItem[],
  bulk: boolean,
  alignErrors: boolean,
): void {
  const bad = items.filter((i) => !i.errors.empty);
  if (!bad.length) return;
  // an error names the field as the request's dialect does (4.4's `form_factor` for a rack's type)
  const named = (i: PreparedItem) => errorsInDialect(model, i.errors.errors, rc.dialect);
  if (!bulk) throw Errors.validation(named(bad[0]!));
  // NetBox: bulk create answers an aligned array; bulk update answers the failing item's errors
  if (alignErrors) throw Errors.validation(items.map(named));
  const err = Errors.validation(named(bad[0]!));
  err.itemIndex = items.indexOf(bad[0]!);
  throw err;
}

async function runPrepareHooks(rc: RequestContext, model: ModelDef, items: PreparedItem[]) {
  if (!model.hooks.prepare) return;
  // what validation read is read once for all items, before anything is written (prepare.ts lookupsOf)
  const prc: RequestContext = { ...rc, lookups: lookupsOf(items) };
  for (const item of items)
    await model.hooks.prepare({ rc: prc, data: item.values, before: item.before, sent: item.sent, m2m: item.m2m });
}

async function runAfterWriteHooks(
  rc: RequestContext,
  model: ModelDef,
  items: PreparedItem[],
  rows: Row[],
  hook: 'afterWrite' | 'afterUpdate' = 'afterWrite',
) {
  const run = model.hooks[hook];
  if (!run) return;
  for (const [i, item] of items.entries()) {
    await run({ rc, data: item.values, before: item.before, sent: item.sent, row: rows[i]! });
  }
}

export interface CreateOptions {
  /** the write ends its transaction: nothing is written after it (the POST route's), so its COMMIT may follow it at once */
  endsTransaction?: boolean;
}

/** Creates objects; returns their stored rows in input order. */
export async function createObjects(
  rc: RequestContext,
  model: ModelDef,
  inputs: unknown[],
  bulk: boolean,
  opts: CreateOptions = {},
): Promise<Row[]> {
  const scope = await requirePermission(rc, model, 'add');
  // DRF ListSerializer (allow_empty): an empty list creates nothing and answers an empty list
  if (inputs.length === 0) return [];
  const items = await prepareItems(rc, model, inputs, 'create', []);
  throwIfInvalid(rc, model, items, bulk, true);
  await runPrepareHooks(rc, model, items);
  const values = items.map((it) => storable(model, it.values));
  // a copy keeps the source's ids (import-netbox/; a hook's follow-up write has none); the sequences follow once it is done
  if (rc.importing)
    values.forEach((v, i) => {
      const id = (inputs[i] as Row).id;
      if (typeof id === 'number') v.id = id;
    });
  // the rows and their change records in one statement where it can (create-in-one.ts)
  const inOne = !rc.importing && (await canCreateInOne(rc, model, items, values, scope));
  // created / last_updated come from the column defaults (now())
  const rows = inOne
    ? await createInOne(rc, model, values, opts.endsTransaction === true)
    : await insertRows(rc.q, model.table, values, true);
  items.forEach((it, i) => (it.id = Number(rows[i]!.id)));
  if (model.tags)
    markUntagged(
      rc,
      model,
      items.filter((it) => !it.tags?.length).map((it) => it.id!),
    );
  if (inOne) {
    // no relations, hooks, events or constraints to follow (canCreateInOne)
    countWhenCommitted(
      rc,
      model,
      rows.map(() => ({ action: 'create' as const })),
    );
    rememberCreated(model, rows, createdMembers(model, items));
    return rows;
  }
  await writeRelations(rc, model, items, false);
  await runAfterWriteHooks(rc, model, items, rows);
  const members = createdMembers(model, items);
  await logCreates(rc, model, rows, members, items);
  await model.hooks.afterCreate?.({ rc, created: items.map((it, i) => ({ data: it.values, row: rows[i]! })) });
  await assertWithinConstraints(
    rc,
    model,
    scope,
    items.map((i) => i.id!),
  );
  // with no hook writing beside the rows, what they show besides their columns is known
  if (!model.hooks.afterWrite && !model.hooks.afterCreate) rememberCreated(model, rows, members);
  return rows;
}

/**
 * The m2m members of objects just created, as writeRelations stored them: a create sets every m2m
 * field (an absent one as empty), each member once, read back in ascending order (m2mMap).
 */
function createdMembers(model: ModelDef, items: PreparedItem[]): M2mMembers {
  const out: M2mMembers = new Map();
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind !== 'm2m') continue;
    const owners = new Map<number, number[]>();
    for (const it of items) {
      const members = it.m2m.get(key);
      if (members?.length)
        owners.set(
          it.id!,
          [...new Set(members)].sort((a, b) => a - b),
        );
    }
    out.set(key, owners);
  }
  return out;
}

async function logCreates(
  rc: RequestContext,
  model: ModelDef,
  rows: Row[],
  members: M2mMembers,
  items?: PreparedItem[],
): Promise<void> {
  if (!model.changelog || rows.length === 0 || rc.importing) return;
  const snaps = await snapshot(rc, model, rows, members);
  await recordChanges(
    rc,
    model,
    rows.map((row, i) => ({
      action: 'create',
      row,
      pre: null,
      post: snaps.get(Number(row.id))!,
      message: items?.[i]?.message,
    })),
  );
}

/**
 * Creates objects from column values the service derived itself (a device's components from its
 * type's templates, NetBox's bulk_create plus post_save): no parsing, permission check or
 * validation of their own, as the values come from validated templates and the write that asked
 * for them was allowed; stored, change-logged and announced like any create, a few statements for
 * the whole batch. Returns the stored rows in input order.
 */
export async function createDerived(rc: RequestContext, model: ModelDef, values: Row[]): Promise<Row[]> {
  const rows = await insertRows(rc.q, model.table, values, true);
  if (model.tags)
    markUntagged(
      rc,
      model,
      rows.map((r) => Number(r.id)),
    );
  // nothing here writes m2m members: every m2m field of these rows is empty
  await logCreates(rc, model, rows, createdMembers(model, []));
  return rows;
}

export interface WriteOptions {
  /**
   * A write the service makes as the consequence of another one the user was allowed (a model
   * hook's follow-up write): validated, logged and announced like any, without a permission check
   * of its own (NetBox: signal handlers save related objects without one).
   */
  followUp?: boolean;
  /** a single update's If-Match tags (etag.ts), checked against the locked row before anything is written */
  ifMatch?: string[] | null;
}

/**
 * Updates objects given as `{id, ...attributes}`. A single update of an id that does not exist or
 * is out of reach is a 404; in bulk, any such id fails the whole request (assertBulkIds).
 */
export async function updateObjects(
  rc: RequestContext,
  model: ModelDef,
  inputs: Array<Record<string, unknown>>,
  mode: Exclude<WriteMode, 'create'>,
  bulk: boolean,
  opts: WriteOptions = {},
): Promise<Row[]> {
  const scope = opts.followUp ? null : await requirePermission(rc, model, 'change');
  const ids = inputs.map((i) => Number(i.id));
  const found = await sql<Row>`select * from ${sql.table(model.table)} as t where t.id = any(${ids}::bigint[])
    ${scope ? sql`and ${scope}` : sql``} for update`.execute(rc.q);
  const byId = new Map(found.rows.map((r) => [Number(r.id), r]));
  if (!bulk && !byId.has(ids[0]!)) throw Errors.notFound();
  if (!bulk) assertIfMatch(model, byId.get(ids[0]!)!, opts.ifMatch);
  assertBulkIds(ids, new Set(byId.keys()), false);
  const befores = ids.map((id) => byId.get(id)!);
  const items = await prepareItems(rc, model, inputs, mode, befores);
  throwIfInvalid(rc, model, items, bulk, false);
  await runPrepareHooks(rc, model, items);
  const logged = model.changelog && !rc.importing;
  const preSnaps = logged ? await snapshot(rc, model, befores) : new Map();
  // the rows that change, in batches of rows changing the same columns; the others as they were
  const updates = items
    .map((item) => rowUpdate(model, item.id!, item.values))
    .filter((u) => Object.keys(u.values).length);
  const updated = await updateRows(rc, model, updates);
  const rows = items.map((item) => updated.get(item.id!) ?? item.before!);
  await writeRelations(rc, model, items, true);
  await runAfterWriteHooks(rc, model, items, rows);
  await runAfterWriteHooks(rc, model, items, rows, 'afterUpdate');
  if (logged) {
    const post = await snapshot(rc, model, rows);
    await recordChanges(
      rc,
      model,
      rows.map((row, i) => ({
        action: 'update',
        row,
        pre: preSnaps.get(Number(row.id)) ?? null,
        post: post.get(Number(row.id))!,
        message: items[i]!.message,
      })),
    );
  }
  await assertWithinConstraints(
    rc,
    model,
    scope,
    rows.map((r) => Number(r.id)),
  );
  return rows;
}

export { deleteObjects } from './delete-objects.js';
