/**
 * Change records (reference 11), written by the one write path in the mutation's transaction.
 * Snapshots use NetBox's change-log format rather than the REST shape: every stored field by name,
 * foreign keys as ids, m2m as id lists, tags as sorted names, keys sorted.
 */
import type { RequestContext, WriteCounts } from '../context.js';
import { storedFields } from '../model/define-model.js';
import type { ModelDef } from '../model/types.js';
import { fetchM2mFields, fetchTags, type M2mMembers, type Row } from '../represent/load-related.js';
import { insertRows } from '../../db/bulk-insert.js';
import { enqueueEvents } from '../events/enqueue.js';
import { deferWrite } from './deferred-write.js';

export type ChangeAction = 'create' | 'update' | 'delete';

/** What one key of a snapshot reads: the stored row, its m2m members and its tag names. */
type SnapshotRead = (row: Row, id: number, m2m: M2mMembers, tags: Map<number, Array<{ name: string }>>) => unknown;

/**
 * The keys of a model's snapshots in their order (sorted) and how each is read, worked out once
 * per model: a bulk create of 100 addresses sorted the keys of every snapshot again (issue 15).
 * A later source of the same key replaces an earlier one, as assigning them in turn did.
 */
const snapshotPlans = new WeakMap<ModelDef, Array<[string, SnapshotRead]>>();

function snapshotPlan(model: ModelDef): Array<[string, SnapshotRead]> {
  let plan = snapshotPlans.get(model);
  if (plan) return plan;
  const reads = new Map<string, SnapshotRead>();
  for (const [key, f] of storedFields(model)) {
    if (f.writeOnly || f.noChangelog) continue;
    const column = f.kind === 'fk' ? `${key}_id` : key;
    reads.set(key, f.kind === 'decimal' ? (row) => (row[column] != null ? String(row[column]) : null) : (row) => row[column] ?? null);
  }
  for (const [key, f] of Object.entries(model.fields)) if (f.kind === 'm2m') reads.set(key, (_row, id, m2m) => m2m.get(key)!.get(id) ?? []);
  if (model.tags) reads.set('tags', (_row, id, _m2m, tags) => (tags.get(id) ?? []).map((t) => t.name).sort());
  if (model.customFields) reads.set('custom_fields', (row) => row.custom_field_data ?? {});
  if (model.timestamps) {
    reads.set('created', (row) => row.created ?? null);
    reads.set('last_updated', (row) => row.last_updated ?? null);
  }
  plan = [...reads].sort(([a], [b]) => (a < b ? -1 : 1));
  snapshotPlans.set(model, plan);
  return plan;
}

/**
 * Snapshots of stored rows, keyed by id. `created`: the m2m members of rows the caller has just
 * created, as it wrote them (write-service.ts createdMembers), so they are not read back: a bulk
 * create of 100 interfaces read its three empty m2m fields in a statement of their own (issue 15).
 */
export async function snapshot(rc: RequestContext, model: ModelDef, rows: Row[], created?: M2mMembers): Promise<Map<number, Row>> {
  const ids = rows.map((r) => Number(r.id));
  const m2mKeys = Object.entries(model.fields).filter(([, f]) => f.kind === 'm2m');
  const m2m = created ?? await fetchM2mFields(rc, m2mKeys.map(([k, f]) => [k, f.through!]), ids);
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
}

/** The change record's related object of a row (ModelDef.relatedObject): an fk's target, or a generic relation's object. */
function relatedOf(rc: RequestContext, model: ModelDef): (row: Row) => { related_object_type: string | null; related_object_id: number | null } {
  const key = model.relatedObject;
  const f = key ? model.fields[key]! : null;
  if (!key || !f) return () => ({ related_object_type: null, related_object_id: null });
  if (f.kind === 'generic') {
    // NetBox 3.7: an image attachment's change names its parent
    const { type, id } = f.generic!;
    const idColumn = model.fields[id]!.kind === 'fk' ? `${id}_id` : id;
    return (row) => ({ related_object_type: (row[type] as string | null) ?? null, related_object_id: (row[idColumn] as number | null) ?? null });
  }
  const target = rc.app.registry.get(f.to!).name;
  return (row) => ({ related_object_type: target, related_object_id: (row[`${key}_id`] as number | null) ?? null });
}

/** Writes one change record per entry, in one statement. */
export async function recordChanges(rc: RequestContext, model: ModelDef, entries: ChangeEntry[]): Promise<void> {
  if (!model.changelog || entries.length === 0) return;
  const related = relatedOf(rc, model);
  // time comes from the column default (now(), the transaction's time)
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
function countWhenCommitted(rc: RequestContext, model: ModelDef, entries: ChangeEntry[]): void {
  const counter = rc.app.modelWrites;
  if (!counter) return;
  const counts: WriteCounts = { create: 0, update: 0, delete: 0 };
  for (const e of entries) counts[e.action]++;
  const count = () => counter.written(model, counts);
  // every write runs in inTransaction; outside one, a statement has committed when it returns
  if (rc.afterCommit) rc.afterCommit.push(count);
  else count();
}
