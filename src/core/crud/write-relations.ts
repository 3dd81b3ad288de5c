/**
 * What a write stores beside the object's row: its many-to-many members and its tags (replaced by
 * `tags`, edited by NetBox 4.6's `add_tags` / `remove_tags`, tag-edits.ts), and which objects of
 * the transaction are known to have no tags (RequestContext.untagged).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import { insertRows } from '../../db/bulk-insert.js';
import type { PreparedItem } from './prepare.js';
import { writeTagEdits } from './tag-edits.js';

/** the members and tags of `items`, replacing what they had when `replacing` (an update) */
export async function writeRelations(rc: RequestContext, model: ModelDef, items: PreparedItem[], replacing: boolean) {
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind !== 'm2m') continue;
    const t = f.through!;
    const touched = items.filter((i) => i.m2m.has(key));
    if (!touched.length) continue;
    if (replacing) {
      await sql`delete from ${sql.table(t.table)} where ${sql.ref(t.from)} = any(${touched.map((i) => i.id)}::bigint[])`.execute(
        rc.q,
      );
    }
    await insertRows(
      rc.q,
      t.table,
      touched.flatMap((i) => [...new Set(i.m2m.get(key)!)].map((m) => ({ [t.from]: i.id, [t.to]: m }))),
    );
  }
  if (!model.tags) return;
  const edited = items.filter((i) => i.addTags?.length || i.removeTags?.length);
  if (edited.length) {
    for (const i of edited) rc.untagged?.delete(`${model.name}:${i.id}`);
    await writeTagEdits(
      rc,
      model,
      edited.map((i) => ({ id: i.id, add: i.addTags, remove: i.removeTags })),
    );
  }
  const tagged = items.filter((i) => i.tags !== undefined);
  if (!tagged.length) return;
  for (const i of tagged) rc.untagged?.delete(`${model.name}:${i.id}`);
  if (replacing) {
    await sql`delete from extras_taggeditem where content_type = ${model.name}
      and object_id = any(${tagged.map((i) => i.id)}::bigint[])`.execute(rc.q);
  }
  await insertRows(
    rc.q,
    'extras_taggeditem',
    tagged.flatMap((i) =>
      [...new Set(i.tags!)].map((tag) => ({ tag_id: tag, content_type: model.name, object_id: i.id })),
    ),
  );
}

/** objects just created with no tags: their tags need no query in this transaction (RequestContext.untagged) */
export function markUntagged(rc: RequestContext, model: ModelDef, ids: number[]): void {
  for (const id of ids) rc.untagged?.add(`${model.name}:${id}`);
}
