/**
 * Works out what a deletion touches, as Django's collector does: dependents whose reference
 * cascades are deleted too (and logged), references that protect block the whole deletion with a
 * 409 naming the dependents, and set-null references are cleared by the database.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import type { FieldDef, ModelDef, OnDelete, Row } from '../model/types.js';

export interface DeletionStep {
  model: ModelDef;
  rows: Row[];
}

function onDeleteOf(f: FieldDef): OnDelete {
  return f.onDelete ?? (f.nullable ? 'set_null' : 'protect');
}

/** Steps in the order they must run: dependents before what they depend on. */
export async function collectDeletion(rc: RequestContext, model: ModelDef, rows: Row[]): Promise<DeletionStep[]> {
  const steps: DeletionStep[] = [];
  const planned = new Map<string, Set<number>>();
  const blocked: Array<{ model: ModelDef; row: Row }> = [];

  const visit = async (m: ModelDef, rs: Row[], depth: number) => {
    const set = planned.get(m.name) ?? new Set<number>();
    planned.set(m.name, set);
    const fresh = rs.filter((r) => !set.has(Number(r.id)));
    if (!fresh.length || depth > 20) return;
    for (const r of fresh) set.add(Number(r.id));
    const ids = fresh.map((r) => Number(r.id));
    for (const [ref, key] of rc.app.registry.referencesTo(m.name)) {
      const f = ref.fields[key]!;
      if (f.kind !== 'fk') continue;
      const action = onDeleteOf(f);
      if (action === 'set_null') continue;
      const deps =
        await sql<Row>`select * from ${sql.table(ref.table)} where ${sql.ref(`${key}_id`)} = any(${ids}::bigint[])`.execute(
          rc.q,
        );
      if (!deps.rows.length) continue;
      if (action === 'cascade') await visit(ref, deps.rows, depth + 1);
      else for (const row of deps.rows) blocked.push({ model: ref, row });
    }
    // generic relations pointing here cascade (Django's GenericRelation deletes the related rows)
    for (const [ref, key] of rc.app.registry.genericReferencesTo(m.name)) {
      if (ref.fields[key]!.onDelete === 'keep') continue;
      const g = ref.fields[key]!.generic!;
      const idCol = ref.fields[g.id]!.kind === 'fk' ? `${g.id}_id` : g.id;
      const deps = await sql<Row>`select * from ${sql.table(ref.table)} where ${sql.ref(g.type)} = ${m.name}
        and ${sql.ref(idCol)} = any(${ids}::bigint[])`.execute(rc.q);
      if (deps.rows.length) {
        if ((ref.fields[key]!.onDelete ?? 'cascade') === 'cascade') await visit(ref, deps.rows, depth + 1);
        else {
          await sql`update ${sql.table(ref.table)} set ${sql.ref(g.type)} = null, ${sql.ref(idCol)} = null
            where id = any(${deps.rows.map((r) => Number(r.id))}::bigint[])`.execute(rc.q);
        }
      }
    }
    steps.push({ model: m, rows: fresh });
  };
  await visit(model, rows, 0);

  const stillBlocked = blocked.filter((b) => !planned.get(b.model.name)?.has(Number(b.row.id)));
  if (stillBlocked.length) {
    const names = stillBlocked.slice(0, 50).map((b) => `${b.model.display(b.row)} (${b.row.id})`);
    throw Errors.protectedDelete(
      `Unable to delete object. ${stillBlocked.length} dependent objects were found: ${names.join(', ')}${stillBlocked.length > 50 ? ', …' : ''}`,
    );
  }
  return steps;
}
