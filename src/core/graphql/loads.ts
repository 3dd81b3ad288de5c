/**
 * The SQL of a GraphQL query, built from the same parts as a REST list (core/crud/read.ts): the
 * view permission's scope (requirePermission), the filters (buildFilters), the ordering
 * (buildOrdering). Every load is one statement, whatever the number of rows it is for:
 * - a top-level list: one page of the model, as REST reads it;
 * - objects by id (a foreign key, a generic relation's targets of one type): `id = any($ids)`;
 * - nested lists (reverse relations, many-to-many, tags) for all the parents of a level at once,
 *   each parent's part numbered by a window function, so each is paginated and capped on its own.
 * A model the user may not view loads nothing: its objects are null and its lists empty
 * (NetBox restricts every queryset to what the user may view, at every level).
 */
import { sql, type RawBuilder } from 'kysely';
import { hasPermission, requirePermission } from '../auth/permissions.js';
import type { ModelDef, Row } from '../model/types.js';
import { buildFilters } from '../query/filters.js';
import type { Cond } from '../query/lookups.js';
import { buildOrdering } from '../query/ordering.js';
import type { ListArgs } from './arguments.js';
import { asGraphqlError } from './errors.js';
import type { FilterNode } from './filter-objects.js';
import { Batch, type GraphqlContext, groupByOwner, type Node } from './batch.js';

type Sql = RawBuilder<unknown>;
const DENIED = Symbol('denied');
type Scope = Cond | null | typeof DENIED;

/** The condition limiting a model to what the user may view (null = all), or DENIED. */
function scopeOf(g: GraphqlContext, model: ModelDef): Promise<Scope> {
  let p = g.scopes.get(model.name) as Promise<Scope> | undefined;
  if (!p) {
    p = (async () => ((await hasPermission(g.rc, model, 'view')) ? requirePermission(g.rc, model, 'view') : DENIED))();
    g.scopes.set(model.name, p);
  }
  return p;
}

/** MAX_PAGE_SIZE applied to a requested page size (0 = no maximum). */
function pageSize(g: GraphqlContext, requested: number | null): number | null {
  const max = g.rc.app.config.maxPageSize;
  if (requested === null) return max === 0 ? null : max;
  return max === 0 ? requested : Math.min(requested, max);
}

/**
 * A filter node's condition (filter-objects.ts): its own parameters, its AND and NOT AND-ed, then
 * its OR OR-ed with the rest; null when it has none. NOT of a condition that is unknown (SQL null,
 * a null column) holds, as Django's exclude() keeps such rows.
 */
async function nodeCondition(g: GraphqlContext, model: ModelDef, node: FilterNode, path: string): Promise<Cond | null> {
  let conds: Cond[];
  try {
    conds = await buildFilters(g.rc, model, node.params);
  } catch (err) {
    throw asGraphqlError(err, path);
  }
  for (const r of node.related ?? []) {
    const cond = await relatedCondition(g, r.target, r.node, r.path);
    if (cond) conds.push(r.match(cond));
  }
  if (node.and) {
    const and = await nodeCondition(g, model, node.and, `${path || 'filters.'}AND.`);
    if (and) conds.push(and);
  }
  if (node.not) {
    const not = await nodeCondition(g, model, node.not, `${path || 'filters.'}NOT.`);
    if (not) conds.push(sql`not coalesce((${not}), false)`);
  }
  let cond = conds.length ? sql`(${sql.join(conds, sql` and `)})` : null;
  if (node.or) {
    const or = await nodeCondition(g, model, node.or, `${path || 'filters.'}OR.`);
    if (or) cond = cond ? sql`(${cond} or ${or})` : or;
  }
  return cond;
}

/**
 * The ids of a related model's rows a filter node keeps, within what the user may view of it (a
 * filter must not reveal the fields of objects the user cannot see), as a subquery: its `t` is the
 * related table, hiding the outer one (related-filters.ts). Null for an empty object.
 */
async function relatedCondition(g: GraphqlContext, target: ModelDef, node: FilterNode, path: string) {
  const cond = await nodeCondition(g, target, node, path);
  if (!cond) return null;
  const scope = await scopeOf(g, target);
  if (scope === DENIED) return sql`(select null::bigint where false)`;
  return sql`(select t.id from ${sql.table(target.table)} as t where ${cond}${scope ? sql` and ${scope}` : sql``})`;
}

async function conditions(g: GraphqlContext, model: ModelDef, args: ListArgs, scope: Cond | null): Promise<Cond[]> {
  const cond = await nodeCondition(g, model, args, '');
  return [...(cond ? [cond] : []), ...(scope ? [scope] : [])];
}

function orderOf(g: GraphqlContext, model: ModelDef, args: ListArgs): Sql {
  try {
    return sql.join(buildOrdering(g.rc.app.registry, model, args.params.get('ordering')));
  } catch (err) {
    throw asGraphqlError(err);
  }
}

const whereOf = (conds: Cond[]) => (conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``);

async function rowsOf(g: GraphqlContext, query: Sql): Promise<Row[]> {
  return (await sql<Row>`${query}`.execute(g.rc.q)).rows;
}

/** `model_list(...)`: one page of the model, filtered and ordered as REST lists it. */
export async function loadList(g: GraphqlContext, model: ModelDef, args: ListArgs): Promise<Node[]> {
  const scope = await scopeOf(g, model);
  if (scope === DENIED) return [];
  const conds = await conditions(g, model, args, scope);
  const limit = pageSize(g, args.limit);
  const rows = await rowsOf(
    g,
    sql`select t.* from ${sql.table(model.table)} as t ${whereOf(conds)} order by ${orderOf(g, model, args)}
      ${limit === null ? sql`` : sql`limit ${limit}`} ${args.offset ? sql`offset ${args.offset}` : sql``}`,
  );
  return new Batch(model, rows).nodes;
}

/** Objects by id, within the view scope: id -> node. */
export async function loadByIds(g: GraphqlContext, model: ModelDef, ids: number[]): Promise<Map<number, Node>> {
  if (ids.length === 0) return new Map();
  const scope = await scopeOf(g, model);
  if (scope === DENIED) return new Map();
  const rows = await rowsOf(
    g,
    sql`select t.* from ${sql.table(model.table)} as t where t.id = any(${ids}::bigint[]) ${scope ? sql`and ${scope}` : sql``}`,
  );
  return new Map(new Batch(model, rows).nodes.map((n) => [Number(n.row.id), n]));
}

/**
 * How the rows of a nested list hang off their parents: the expression giving the parent's id
 * (`__owner`), a join when that id sits in a join table, and a further condition (a generic
 * relation's type).
 */
export interface ChildLink {
  owner: Sql;
  join?: Sql;
  where?: Sql;
}

/** A nested list for all parents of a level: parent id -> its page of nodes (one batch). */
export async function loadChildren(
  g: GraphqlContext,
  model: ModelDef,
  link: ChildLink,
  parentIds: number[],
  args: ListArgs,
): Promise<Map<number, Node[]>> {
  if (parentIds.length === 0) return new Map();
  const scope = await scopeOf(g, model);
  if (scope === DENIED) return new Map();
  const conds = await conditions(g, model, args, scope);
  conds.unshift(sql`${link.owner} = any(${parentIds}::bigint[])`);
  if (link.where) conds.push(link.where);
  const limit = pageSize(g, args.limit);
  const upTo = limit === null ? sql`` : sql`and s.__rn <= ${args.offset + limit}`;
  const rows = await rowsOf(
    g,
    sql`select s.* from (
        select t.*, ${link.owner} as __owner, row_number() over (partition by ${link.owner} order by ${orderOf(g, model, args)}) as __rn
        from ${sql.table(model.table)} as t ${link.join ?? sql``} ${whereOf(conds)}) s
      where s.__rn > ${args.offset} ${upTo} order by s.__owner, s.__rn`,
  );
  return groupByOwner(model, rows);
}
