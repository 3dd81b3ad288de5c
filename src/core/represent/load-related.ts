/**
 * Batched loading of everything a page of rows shows besides its own columns: nested parents,
 * many-to-many members, tags, counts and tree depth. One query per relation per page, never one
 * per row (DESIGN: Performance habits), run concurrently when the engine allows it.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { CountDef, ModelDef } from '../model/types.js';

export type Row = Record<string, unknown>;

export async function runAll<T>(rc: RequestContext, tasks: Array<() => Promise<T>>): Promise<T[]> {
  if (rc.app.db.concurrent) return Promise.all(tasks.map((t) => t()));
  const out: T[] = [];
  for (const t of tasks) out.push(await t());
  return out;
}

export async function fetchRowsById(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  if (model.treeParent) {
    // tree rows come with their depth, saving the renderer a second query per nested tree model
    const res = await sql<Row>`select r.*, d.depth as _depth from ${sql.table(model.table)} r
      join ${depthsSql(model, ids)} d on d.id = r.id`.execute(rc.q);
    return res.rows;
  }
  const res = await sql<Row>`select * from ${sql.table(model.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
  return res.rows;
}

/** m2m: owner id -> member ids */
export async function fetchM2m(
  rc: RequestContext,
  through: { table: string; from: string; to: string },
  ownerIds: number[],
): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (ownerIds.length === 0) return map;
  const res = await sql<{ o: number; m: number }>`select ${sql.ref(through.from)} as o, ${sql.ref(through.to)} as m
    from ${sql.table(through.table)} where ${sql.ref(through.from)} = any(${ownerIds}::bigint[]) order by 2`.execute(rc.q);
  for (const r of res.rows) {
    const list = map.get(Number(r.o)) ?? [];
    list.push(Number(r.m));
    map.set(Number(r.o), list);
  }
  return map;
}

export interface TagRow {
  id: number;
  name: string;
  slug: string;
  color: string;
}

/** object id -> tags, for one model */
export async function fetchTags(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Map<number, TagRow[]>> {
  const map = new Map<number, TagRow[]>();
  if (ids.length === 0) return map;
  const res = await sql<TagRow & { object_id: number }>`select ti.object_id, t.id, t.name, t.slug, t.color
    from extras_taggeditem ti join extras_tag t on t.id = ti.tag_id
    where ti.content_type = ${model.name} and ti.object_id = any(${ids}::bigint[]) order by t.name`.execute(rc.q);
  for (const r of res.rows) {
    const list = map.get(Number(r.object_id)) ?? [];
    list.push(r);
    map.set(Number(r.object_id), list);
  }
  return map;
}

/** Sub-select of (id, depth) for the given ids of a tree model: 0 = top level. */
function depthsSql(model: ModelDef, ids: number[]) {
  const t = sql.table(model.table);
  const parent = sql.ref(`${model.treeParent}_id`);
  return sql`(with recursive up(id, pid, depth) as (
      select id, ${parent}, 0 from ${t} where id = any(${ids}::bigint[])
      union all
      select up.id, p.${parent}, up.depth + 1 from up join ${t} p on p.id = up.pid where up.depth < 100)
    select id, max(depth)::int as depth from up group by id)`;
}

/** tree depth of each id (0 = top level) */
export async function fetchDepths(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  if (ids.length === 0 || !model.treeParent) return map;
  const res = await sql<{ id: number; depth: number }>`select id, depth from ${depthsSql(model, ids)} d`.execute(rc.q);
  for (const r of res.rows) map.set(Number(r.id), Number(r.depth));
  return map;
}

/** ids of `ids` and all their descendants in a tree model (SQL fragment) */
export function descendantsSql(model: ModelDef, idsSql: ReturnType<typeof sql>) {
  const t = sql.table(model.table);
  const parent = sql.ref(`${model.treeParent}_id`);
  return sql`(with recursive down(id) as (
      select id from ${t} where id in (${idsSql})
      union select c.id from ${t} c join down on c.${parent} = down.id)
    select id from down)`;
}

/** count of related rows per id; cumulative counts include descendants of tree models */
export async function fetchCount(
  rc: RequestContext,
  model: ModelDef,
  count: CountDef,
  ids: number[],
): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  if (ids.length === 0) return map;
  const { cumulative } = count;
  const counted = count.model ? rc.app.registry.get(count.model) : null;
  const fk = sql.ref(count.through ? count.through.column : `${count.via}_id`);
  const ct = sql.table(count.through ? count.through.table : counted!.table);
  let res;
  if (cumulative && model.treeParent) {
    const t = sql.table(model.table);
    const parent = sql.ref(`${model.treeParent}_id`);
    res = await sql<{ id: number; n: number }>`with recursive down(root, id) as (
        select id, id from ${t} where id = any(${ids}::bigint[])
        union all select down.root, c.id from ${t} c join down on c.${parent} = down.id)
      select down.root as id, count(*)::int as n from down join ${ct} x on x.${fk} = down.id group by down.root`.execute(rc.q);
  } else {
    res = await sql<{ id: number; n: number }>`select ${fk} as id, count(*)::int as n from ${ct}
      where ${fk} = any(${ids}::bigint[]) group by ${fk}`.execute(rc.q);
  }
  for (const r of res.rows) map.set(Number(r.id), Number(r.n));
  return map;
}
