/**
 * Models NetBox 4 made trees (NestedGroupModel: device roles in 4.3, platforms in 4.4): a `parent`
 * and `_depth` shown in the 4.4 dialect only, the `ancestor` filters, and no node below itself.
 * Names and slugs stay unique across the whole tree, as in 3.4.
 */
import { sql } from 'kysely';
import type { FieldDef, ModelHooks } from '../../core/model/types.js';
import { descendantsSql } from '../../core/represent/load-related.js';
import { fk } from '../fields.js';

/** the parent field of such a tree: a node goes with its parent (NestedGroupModel's CASCADE) */
export const parentIn44 = (id: string): FieldDef => fk(id, { onDelete: 'cascade', dialect: '4.4' });

/** the validate hook: a node may not be its own ancestor */
export function noCycle(id: string): NonNullable<ModelHooks['validate']> {
  return async ({ rc, data, before }) => {
    if (!before || data.parent_id == null) return;
    const model = rc.app.registry.get(id);
    const res = await sql<{ id: number }>`select id from ${descendantsSql(model, sql`select ${before.id}::bigint`)} d
      where id = ${data.parent_id}`.execute(rc.q);
    if (res.rows.length) return { parent: ['Cannot assign self or child as parent.'] };
  };
}
