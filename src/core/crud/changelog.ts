/**
 * Change records (reference 11), written by the one write path in the mutation's transaction.
 * Snapshots use NetBox's change-log format rather than the REST shape: every stored field by name,
 * foreign keys as ids, m2m as id lists, tags as sorted names, keys sorted.
 */
import type { RequestContext, WriteCounts } from '../context.js';
import { storedFields } from '../model/define-model.js';
import type { FieldDef, ModelDef, Row } from '../model/types.js';
import { fetchM2mFields, fetchTags, type M2mMembers } from '../represent/load-related.js';
import { insertRows } from '../../db/bulk-insert.js';
import { enqueueEvents } from '../events/enqueue.js';
import { deferWrite } from './deferred-write.js';

export type ChangeAction = 'create' | 'update' | 'delete';

/**
 * Where one key of a snapshot comes from: a stored column (of its field's kind), the m2m members
 * of a field, the tag names, the custom field data or a timestamp. Both the snapshot read here
 * and the one PostgreSQL builds for a create in one statement (create-in-one.ts) follow these.
 */
export type SnapshotSource =
  | { from: 'column'; column: string; field: FieldDef }
  | { from: 'm2m'; field: string }
  | { from: 'tags' }
  | { from: 'custom_fields' }
  | { from: 'timestamp'; column: 'created' | 'last_updated' };

/** What one key of a snapshot reads: the stored row, its m2m members and its tag names. */
type SnapshotRead = (row: Row, id: number, m2m: M2mMembers, tags: Map<number, Array<{ name: string }>>) => unknown;

/**
 * The keys of a model's snapshots in their order (sorted) and where each comes from, worked out
 * once per model: a bulk create of 100 addresses sorted the keys of every snapshot again.
 * A later source of the same key replaces an earlier one, as assigning them in turn would.
 */
const snapshotSourceLists = new WeakMap<ModelDef, Array<[string, SnapshotSource]>>();

export function snapshotSources(model: ModelDef): Array<[string, SnapshotSource]> {
  let list = snapshotSourceLists.get(model);
  if (list) return list;
  const sources = new Map<string, SnapshotSource>();
  for (const [key, f] of storedFields(model)) {
    if (f.writeOnly || f.noChangelog) continue;
    sources.set(key, { from: 'column', column: f.kind === 'fk' ? `${key}_id` : key, field: f });
  }
  for (const [key, f] of Object.entries(model.fields))
    if (f.kind === 'm2m') sources.set(key, { from: 'm2m', field: key });
  if (model.tags) sources.set('tags', { from: 'tags' });
  if (model.customFields) sources.set('custom_fields', { from: 'custom_fields' });
  if (model.timestamps) {
    sources.set('created', { from: 'timestamp', column: 'created' });
    sources.set('last_updated', { from: 'timestamp', column: 'last_updated' });
  }
  list = [...sources].sort(([a], [b]) => (a < b ? -1 : 1));
  snapshotSourceLists.set(model, list);
  return list;
}

function reader(source: SnapshotSource): SnapshotRead {
  switch (source.from) {
    case 'column': {
      const { column } = source;
      return source.field.kind === 'decimal'
        ? (row) => (row[column] != null ? String(row[column]) : null)
        : (row) => row[column] ?? null;
    }
    case 'm2m':
      return (_row, id, m2m) => m2m.get(source.field)!.get(id) ?? [];
    case 'tags':
      return (_row, id, _m2m, tags) => (tags.get(id) ?? []).map((t) => t.name).sort();
    case 'custom_fields':
      return (row) => row.custom_field_data ?? {};
    case 'timestamp':
      return (row) => row[source.column] ?? null;
  }
}

const snapshotPlans = new WeakMap<ModelDef, Array<[string, SnapshotRead]>>();

function snapshotPlan(model: ModelDef): Array<[string, SnapshotRead]> {
  let plan = snapshotPlans.get(model);
  if (!plan) snapshotPlans.set(model, (plan = snapshotSources(model).map(([key, source]) => [key, reader(source)])));
  return plan;
}

/**
 * Snapshots of stored rows, keyed by id. `created`: the m2m members of rows the caller has just
 * created, as it wrote them (write-service.ts createdMembers), so they are not read back: a bulk
 * create of 100 interfaces read its three empty m2m fields in a statement of their own.
 */
export async function snapshot(
  rc: RequestContext,
  model: ModelDef,
  rows: Row[],
  created?: M2mMembers,
): Promise<Map<number, Row>> {
  const ids = rows.map((r) => Number(r.id));
  const m2mKeys = Object.entries(model.fields).filter(([, f]) => f.kind === 'm2m');
  const m2m =
    created ??
    (await fetchM2mFields(
      rc,
      m2mKeys.map(([k, f]) => [k, f.through!]),
      ids,
    ));
  const tags = model.tags ? await fetchTags(rc, model, ids) : new Map<number, Array<{ name: string }>>();
  const plan = snapshotPlan(model);
  const out = new Map<number, Row>();
  for (const row of rows) {
    const id = Number(row.id);
    const data: Row = {};
    for (const [key, read] of plan) data[key] = read(row, id, m2m, tags);
    out.set(id, data);
  }
  return out;
}

export interface ChangeEntry {
  action: ChangeAction;
  row: Row;
  pre: Row | null;
  post: Row | null;
  /** the write's `changelog_message` for this object (changelog-message.ts), NetBox 4.4 */
  message?: string;
}

/**
 * Where a change record's related object comes from (ModelDef.relatedObject): the type is a
 * column (a generic relation's) or a model's name (an fk's target); the id is a column. Null:
 * the model names none.
 */
export interface RelatedSource {
  typeColumn: string | null;
  typeName: string | null;
  idColumn: string;
}

export function relatedSource(rc: RequestContext, model: ModelDef): RelatedSource | null {
  const key = model.relatedObject;
  const f = key ? model.fields[key]! : null;
  if (!key || !f) return null;
  if (f.kind === 'generic') {
    // NetBox 3.7: an image attachment's change names its parent
    const { type, id } = f.generic!;
    return { typeColumn: type, typeName: null, idColumn: model.fields[id]!.kind === 'fk' ? `${id}_id` : id };
  }
  return { typeColumn: null, typeName: rc.app.registry.get(f.to!).name, idColumn: `${key}_id` };
}

/** The change record's related object of a row. */
export function relatedOf(
  rc: RequestContext,
  model: ModelDef,
): (row: Row) => { related_object_type: string | null; related_object_id: number | null } {
  const source = relatedSource(rc, model);
  if (!source) return () => ({ related_object_type: null, related_object_id: null });
  const { typeColumn, typeName, idColumn } = source;
  return (row) => ({
    related_object_type: typeColumn ? ((row[typeColumn] as string | null) ?? null) : typeName,
    related_object_id: (row[idColumn] as number | null) ?? null,
  });
}

/** Writes one change record per entry, in one statement. */
export async function recordChanges(rc: RequestContext, model: ModelDef, entries: ChangeEntry[]): Promise<void> {
  // a copy's history is its source's (import-netbox/): no record of its own, no event
  if (!model.changelog || entries.length === 0 || rc.importing) return;
  const related = relatedOf(rc, model);
  // time comes from the column default (now(), the transaction's time); the message column only
  // when a record has one, so the usual statement keeps its text
  const withMessage = entries.some((e) => e.message !== undefined);
  const rows = entries.map((e) => ({
    user_id: rc.user?.id ?? null,
    user_name: rc.user?.username ?? '',
    request_id: rc.requestId,
    action: e.action,
    changed_object_type: model.name,
    changed_object_id: Number(e.row.id),
    ...related(e.row),
    object_repr: model.display(e.row).slice(0, 200),
    prechange_data: e.pre,
    postchange_data: e.post,
    ...(withMessage ? { message: e.message ?? '' } : {}),
  }));
  // nothing reads the change records back in the transaction: its next statement or COMMIT follows them at once
  await deferWrite(rc, insertRows(rc.q, 'extras_objectchange', rows));
  // the outbox rows of the event rules that listen, in this same transaction
  await enqueueEvents(rc, model, entries);
  countWhenCommitted(rc, model, entries);
}

/**
 * NetBox's change-logging signals count django_model_inserts/updates/deletes for every logged
 * change (reference 14); here they are counted once the transaction commits, so a write that is
 * rolled back (a bulk request with one bad item) counts nothing.
 */
export function countWhenCommitted(
  rc: RequestContext,
  model: ModelDef,
  entries: Array<{ action: ChangeAction }>,
): void {
  const counter = rc.app.modelWrites;
  if (!counter) return;
  const counts: WriteCounts = { create: 0, update: 0, delete: 0 };
  for (const e of entries) counts[e.action]++;
  const count = () => counter.written(model, counts);
  // every write runs in inTransaction; outside one, a statement has committed when it returns
  if (rc.afterCommit) rc.afterCommit.push(count);
  else count();
}
