/**
 * Loading everything a page of rows shows besides its own columns: nested parents, many-to-many
 * members, tags, counts and tree depth. One query per relation per page, never one per row
 * (DESIGN: Performance habits).
 *
 * Each relation has one SQL shape (the `*Sql` builders), taking the owner ids either as an array
 * parameter or as a sub-select. The `fetch*` functions run it on its own (writes, nested forms);
 * prefetch.ts embeds the same shape in the page query, so a GET costs one statement. The `*Map`
 * functions turn its rows into lookups, whichever way they arrived.
 */
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { CountDef, ModelDef, Row } from '../model/types.js';
import type { Registry } from '../model/registry.js';

type Sql = RawBuilder<unknown>;

/** The owner ids of a load: a list (one parameter), or a sub-select of one column. */
export type Ids = number[] | Sql;

/** an m2m field's through table: owner column, member column */
type Through = { table: string; from: string; to: string };

/**
 * `column` is one of the ids. A sub-select's ids are gathered into an array first: as `in (...)`
 * the planner joined a page of 10 interfaces to their device by hashing the whole device table
 * (its estimate of the page is a guess), where the array is looked up in the index, id by id.
 */
export function idIn(column: Sql, ids: Ids): Sql {
  return Array.isArray(ids) ? sql`${column} = any(${ids}::bigint[])` : sql`${column} = any(array(${ids}))`;
}

export async function runAll<T>(rc: RequestContext, tasks: Array<() => Promise<T>>): Promise<T[]> {
  if (rc.app.db.concurrent) return Promise.all(tasks.map((t) => t()));
  const out: T[] = [];
  for (const t of tasks) out.push(await t());
  return out;
}

/** Rows by id; tree rows come with their depth (`_depth`, kept in the row: migration 0153), as nested tree objects show it. */
export function rowsByIdSql(model: ModelDef, ids: Ids, columns: string[] | null = null): Sql {
  const cols = columns
    ? sql.join([...columns, ...(model.treeParent ? ['_depth'] : [])].map((c) => sql.ref(`r.${c}`)))
    : sql`r.*`;
  return sql`select ${cols} from ${sql.table(model.table)} r where ${idIn(sql.ref('r.id'), ids)}`;
}

/** Rows by id: every column, or only `columns` (a form's, represent/columns.ts). */
export async function fetchRowsById(
  rc: RequestContext,
  model: ModelDef,
  ids: number[],
  columns: string[] | null = null,
): Promise<Row[]> {
  if (ids.length === 0) return [];
  return (await sql<Row>`${rowsByIdSql(model, ids, columns)}`.execute(rc.q)).rows;
}

/** m2m: rows (o = owner id, m = member id) */
export function m2mSql(through: Through, ids: Ids): Sql {
  return sql`select ${sql.ref(through.from)} as o, ${sql.ref(through.to)} as m from ${sql.table(through.table)}
    where ${idIn(sql.ref(through.from), ids)}`;
}

/** owner id -> member ids, in member id order */
export function m2mMap(rows: Array<{ o: unknown; m: unknown }>): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const r of rows) {
    const list = map.get(Number(r.o)) ?? [];
    list.push(Number(r.m));
    map.set(Number(r.o), list);
  }
  for (const list of map.values()) list.sort((a, b) => a - b);
  return map;
}

export async function fetchM2m(rc: RequestContext, through: Through, ids: number[]): Promise<Map<number, number[]>> {
  if (ids.length === 0) return new Map();
  return m2mMap((await sql<{ o: number; m: number }>`${m2mSql(through, ids)}`.execute(rc.q)).rows);
}

/** m2m field key -> owner id -> member ids, in member id order */
export type M2mMembers = Map<string, Map<number, number[]>>;

/**
 * The members of several m2m fields of the same owners in one statement (a change-log snapshot of
 * an interface reads three).
 */
export async function fetchM2mFields(
  rc: RequestContext,
  fields: Array<[string, Through]>,
  ids: number[],
): Promise<M2mMembers> {
  if (fields.length === 0 || ids.length === 0) return new Map(fields.map(([k]) => [k, new Map()]));
  if (fields.length === 1) return new Map([[fields[0]![0], await fetchM2m(rc, fields[0]![1], ids)]]);
  const parts = fields.map(
    ([k, through]) => sql`select ${sql.lit(k)}::text as k, j.o, j.m from (${m2mSql(through, ids)}) j`,
  );
  const rows = (await sql<{ k: string; o: number; m: number }>`${sql.join(parts, sql` union all `)}`.execute(rc.q))
    .rows;
  return new Map(fields.map(([k]) => [k, m2mMap(rows.filter((r) => r.k === k))]));
}

export interface TagRow {
  id: number;
  name: string;
  slug: string;
  color: string;
  /** shown in NetBox 4's nested tag */
  description: string;
}

/** tags of objects of one model: rows (object_id, id, name, slug, color, description); callers order by name */
export function tagsSql(model: ModelDef, ids: Ids): Sql {
  return sql`select ti.object_id, g.id, g.name, g.slug, g.color, g.description from extras_taggeditem ti join extras_tag g on g.id = ti.tag_id
    where ti.content_type = ${sql.lit(model.name)} and ${idIn(sql.ref('ti.object_id'), ids)}`;
}

/** object id -> tags, in the order of the rows */
export function tagsMap(rows: Array<TagRow & { object_id: unknown }>): Map<number, TagRow[]> {
  const map = new Map<number, TagRow[]>();
  for (const { object_id, id, name, slug, color, description } of rows) {
    const list = map.get(Number(object_id)) ?? [];
    list.push({ id: Number(id), name, slug, color, description });
    map.set(Number(object_id), list);
  }
  return map;
}

export async function fetchTags(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Map<number, TagRow[]>> {
  // objects this transaction created without tags have none (RequestContext.untagged)
  if (ids.length === 0 || ids.every((id) => rc.untagged?.has(`${model.name}:${id}`))) return new Map();
  const res = await sql<TagRow & { object_id: number }>`${tagsSql(model, ids)} order by g.name, g.id`.execute(rc.q);
  return tagsMap(res.rows);
}

/** (id, n) rows of the depths of a tree model's ids (0 = top level, kept in the row: migration 0153), the shape of countSql's rows */
export function depthRowsSql(model: ModelDef, ids: Ids): Sql {
  return sql`select id, _depth as n from ${sql.table(model.table)} where ${idIn(sql.ref('id'), ids)}`;
}

/** id -> number: depths and counts */
export function numberMap(rows: Array<{ id: unknown; n: unknown }>): Map<number, number> {
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
}

export async function fetchDepths(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0 || !model.treeParent) return new Map();
  return numberMap((await sql<{ id: number; n: number }>`${depthRowsSql(model, ids)}`.execute(rc.q)).rows);
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

/** related rows counted per owner id: rows (id, n); cumulative counts include tree descendants */
export function countSql(rc: RequestContext, model: ModelDef, count: CountDef, ids: Ids): Sql {
  const counted = count.model ? rc.app.registry.get(count.model) : null;
  if (count.generic) {
    const { type, id } = counted!.fields[count.generic]!.generic!;
    const ref = sql.ref(id);
    // a literal: the prefetch statement is compiled once and must take no parameters
    return sql`select ${ref} as id, count(*)::int as n from ${sql.table(counted!.table)}
      where ${sql.ref(type)} = ${sql.lit(model.name)} and ${idIn(ref, ids)} group by ${ref}`;
  }
  const fk = sql.ref(countedColumn(count));
  const ct = sql.table(countedTable(count, counted));
  if (count.cumulative && model.treeParent) {
    const t = sql.table(model.table);
    const parent = sql.ref(`${model.treeParent}_id`);
    return sql`with recursive down(root, id) as (
        select id, id from ${t} where ${idIn(sql.ref('id'), ids)}
        union all select down.root, c.id from ${t} c join down on c.${parent} = down.id)
      select down.root as id, count(*)::int as n from down join ${ct} x on x.${fk} = down.id group by down.root`;
  }
  if (count.kept) {
    // migration 0148: the sum of each owner's slots, whatever the number of rows counted, in one
    // index scan for all the owners (an owner with no row is 0: render.ts)
    return sql`select k.owner as id, sum(k.n)::int as n from inv_kept_count k
      where k.tbl = ${sql.lit(countedTable(count, counted))} and k.col = ${sql.lit(countedColumn(count))} and ${idIn(sql.ref('k.owner'), ids)}
      group by k.owner`;
  }
  // one count per owner, each an index(-only) scan of its own rows: grouping all the owners' rows
  // at once had the planner scan and hash the whole table (sites/?limit=50: every prefix and VLAN)
  return sql`select o.id, (select count(*)::int from ${ct} x where x.${fk} = o.id) as n from ${idRows(ids)}`;
}

/** A count read from inv_kept_count as it is (neither generic nor cumulative down a tree): its `table.column`, or null. */
export function keptPair(registry: Registry, model: ModelDef, count: CountDef): string | null {
  if (!count.kept || count.generic || (count.cumulative && model.treeParent)) return null;
  return countedPair(registry, count);
}

/**
 * Several kept counts of a model in one statement (a device's ten component counts were ten
 * sub-plans, each costing about as much to start as to run: a device detail 0.52-0.60 ms of
 * PostgreSQL with them, 0.37-0.45 without), as one JSON value: the slots' owners, tables, columns
 * and counts as four arrays, summed per owner by keptCountsOf. Grouping and summing them in SQL and
 * writing each row as a JSON object cost three times as much (a sites page of 20: 0.25 against
 * 0.07 ms; PostgreSQL looks up each column's output function for every row it writes so).
 * Pairs the lists cross but no count names are read and ignored.
 */
export function keptCountsSql(pairs: string[], ids: Ids): Sql {
  const split = pairs.map((p) => p.split('.') as [string, string]);
  const tables = [...new Set(split.map(([t]) => t))];
  const columns = [...new Set(split.map(([, c]) => c))];
  return sql`(select json_build_array(array_agg(k.owner), array_agg(k.tbl), array_agg(k.col), array_agg(k.n)) from inv_kept_count k
    where k.tbl in (${sql.join(tables.map((t) => sql.lit(t)))}) and k.col in (${sql.join(columns.map((c) => sql.lit(c)))}) and ${idIn(sql.ref('k.owner'), ids)})`;
}

/** keptCountsSql's value as counts per `table.column`, each by owner (pairs with no slot: an empty map) */
export function keptCountsOf(value: unknown, pairs: Iterable<string>): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  // by table, then column: a `${table}.${column}` key made per slot row was a new string to hash
  // for each of them (sites/?limit=50 at scale: 150 rows, 3 % of the request's Node time)
  const byTable = new Map<string, Map<string, Map<number, number>>>();
  for (const pair of pairs) {
    const byOwner = new Map<number, number>();
    out.set(pair, byOwner);
    const dot = pair.indexOf('.');
    const table = pair.slice(0, dot);
    let columns = byTable.get(table);
    if (!columns) byTable.set(table, (columns = new Map()));
    columns.set(pair.slice(dot + 1), byOwner);
  }
  const [owners, tables, columns, counts] = value as [
    number[] | null,
    string[] | null,
    string[] | null,
    Array<number | string> | null,
  ];
  for (let i = 0; i < (owners?.length ?? 0); i++) {
    const byOwner = byTable.get(tables![i]!)?.get(columns![i]!);
    if (!byOwner) continue;
    const owner = Number(owners![i]);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + Number(counts![i]));
  }
  return out;
}

/** the table and column a count reads (a join table's, or the counted model's foreign key) */
function countedTable(count: CountDef, counted: ModelDef | null): string {
  return count.through ? count.through.table : counted!.table;
}
function countedColumn(count: CountDef): string {
  return count.through ? count.through.column : `${count.via}_id`;
}

/** a count's `table.column`, as inv_kept_count names it */
function countedPair(registry: Registry, count: CountDef): string {
  return `${countedTable(count, count.model ? registry.get(count.model) : null)}.${countedColumn(count)}`;
}

/** per registry: the `table.column` pairs the models declare kept per owner (migrations 0148-0150 list the same) */
const keptColumnSets = new WeakMap<object, Set<string>>();

export function keptColumns(registry: Registry): Set<string> {
  let set = keptColumnSets.get(registry);
  if (!set) {
    set = new Set();
    for (const model of registry.all()) {
      for (const count of Object.values(model.counts)) {
        if (count.kept) set.add(countedPair(registry, count));
      }
    }
    keptColumnSets.set(registry, set);
  }
  return set;
}

/** the ids as a relation `o(id)` */
function idRows(ids: Ids): Sql {
  return Array.isArray(ids) ? sql`unnest(${ids}::bigint[]) as o(id)` : sql`(${ids}) as o(id)`;
}

export async function fetchCount(
  rc: RequestContext,
  model: ModelDef,
  count: CountDef,
  ids: number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  return numberMap((await sql<{ id: number; n: number }>`${countSql(rc, model, count, ids)}`.execute(rc.q)).rows);
}
