/**
 * Prefetch: a list page or a detail in ONE SQL statement. The page query becomes a CTE, and the
 * related data its representation shows (nested parents, many-to-many members, generic targets,
 * counts, tags, tree depth) is aggregated over the page's ids by the same SQL shapes the batched
 * loaders run (load-related.ts), returned as one JSON value on the page's first row. bench/
 * measured the round trips, not the queries, as the cost of a page (8 statements -> 1); the
 * aggregates are set-based, so related rows are looked up once per page rather than once per row.
 * A page PostgreSQL would plan afresh for each request (crud/read-plan.ts plannedPerValue), or a
 * page read otherwise alone (the read's plan: crud/README.md), runs alone instead, and the same
 * aggregates follow over its ids (prefetchFor), so they are planned once.
 *
 * Related rows travel as JSON and are normalised to look exactly like rows the driver parses
 * (timestamps, inet), so the renderer cannot tell the two paths apart.
 */
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { genericTargets } from '../model/define-model.js';
import type { ModelDef, Row } from '../model/types.js';
import { countSql, depthRowsSql, keptCountsSql, keptPair, m2mSql, rowsByIdSql, tagsSql } from './load-related.js';
import { columnsFor } from './columns.js';
import { planRender, type RenderPlan } from './plan.js';
import { type Prefetched, type PrefetchShape, prefetchedOf } from './prefetched.js';

export type { Prefetched };

type Sql = RawBuilder<unknown>;

const PAGE_IDS = sql`select id from page`;

function agg(inner: Sql, order?: Sql): Sql {
  return sql`(select coalesce(json_agg(to_json(r)${order ? sql` order by ${order}` : sql``}), '[]'::json) from (${inner}) r)`;
}

/**
 * The JSON object's entries (key -> aggregate over the page), and what they cover: fk and generic
 * fields are covered by the `rows:<model>` entries of their targets, the rest by their own entry.
 */
function prefetchEntries(
  rc: RequestContext,
  model: ModelDef,
  plan: RenderPlan,
): { entries: Array<[string, Sql]>; covered: Set<string>; kept: Array<[string, string]> } {
  const { registry } = rc.app;
  const entries: Array<[string, Sql]> = [];
  const covered = new Set<string>();
  // ids to load per target model, from every fk, m2m and generic field pointing at it
  const targetIds = new Map<string, Sql[]>();
  const want = (to: string, ids: Sql) => targetIds.set(to, [...(targetIds.get(to) ?? []), ids]);
  // targets every row points at (a required fk, a generic relation): their own parents are worth
  // reading with the page; those of optional ones (an interface's parent, lag, module) are mostly
  // absent, and a sub-select per page for them cost an interface page more than it saved
  const always = new Set<string>();
  for (const k of plan.fkKeys) {
    want(model.fields[k]!.to!, sql`select ${sql.ref(`${k}_id`)} from page`);
    if (model.fields[k]!.nullable === false) always.add(model.fields[k]!.to!);
    covered.add(`fk:${k}`);
  }
  for (const k of plan.m2mKeys) {
    const f = model.fields[k]!;
    want(f.to!, sql`select m from (${m2mSql(f.through!, PAGE_IDS)}) j`);
    entries.push([`m2m:${k}`, agg(m2mSql(f.through!, PAGE_IDS))]);
  }
  for (const k of plan.genericKeys) {
    const f = model.fields[k]!;
    const types = (genericTargets(model, f) ?? []).filter((ty) => registry.find(ty));
    if (types.length === 0) continue; // any model: loaded in batches
    for (const ty of types) {
      want(ty, sql`select ${sql.ref(f.generic!.id)} from page where ${sql.ref(f.generic!.type)} = ${sql.lit(ty)}`);
      always.add(ty);
    }
    covered.add(`gen:${k}`);
  }
  for (const [to, ids] of targetIds) {
    const target = registry.get(to);
    const idsOfTarget = sql.join(ids, sql` union `);
    const nested = planRender(target, 'nested', { dialect: plan.dialect });
    entries.push([`rows:${to}`, agg(rowsByIdSql(target, idsOfTarget, columnsFor(target, nested)))]);
    // the nested form's own parents, read through the target's rows: one statement, not one more per model
    if (!always.has(to)) continue;
    for (const k of nested.fkKeys) {
      const inner = registry.get(target.fields[k]!.to!);
      const innerIds = sql`select ${sql.ref(`${k}_id`)} from ${sql.table(target.table)} where id in (${idsOfTarget})`;
      entries.push([
        `inner:${to}:${inner.name}`,
        agg(rowsByIdSql(inner, innerIds, columnsFor(inner, planRender(inner, 'nested', { dialect: plan.dialect })))),
      ]);
    }
  }
  // the kept counts, two or more, as one entry (`kept`: load-related.ts keptCountsSql); the others one each
  let kept = plan.countKeys.flatMap((k): Array<[string, string]> => {
    const pair = keptPair(registry, model, model.counts[k]!);
    return pair ? [[k, pair]] : [];
  });
  if (kept.length < 2) kept = [];
  else
    entries.push([
      'kept',
      keptCountsSql(
        kept.map(([, p]) => p),
        PAGE_IDS,
      ),
    ]);
  const inKept = new Set(kept.map(([k]) => k));
  for (const k of inKept) covered.add(`count:${k}`);
  for (const k of plan.countKeys)
    if (!inKept.has(k)) entries.push([`count:${k}`, agg(countSql(rc, model, model.counts[k]!, PAGE_IDS))]);
  if (plan.withTags) entries.push(['tags', agg(tagsSql(model, PAGE_IDS), sql`r.name, r.id`)]);
  if (plan.withDepth) entries.push(['depth', agg(depthRowsSql(model, PAGE_IDS))]);
  if (plan.mode === 'full')
    // rows for a field the plan does not show (another dialect's, or left out by ?fields=) are not read
    for (const [key, rows] of Object.entries(model.representRows ?? {}))
      if (!(key in model.fields) || plan.keys.includes(key)) entries.push([`hook:${key}`, agg(rows.select(PAGE_IDS))]);
  for (const [key] of entries) if (!key.startsWith('rows:') && !key.startsWith('inner:')) covered.add(key);
  return { entries, covered, kept };
}

/** The statement around a page query, as text: the same for every request of a model and mode. */
interface Wrapper extends PrefetchShape {
  prefix: string;
  suffix: string;
  /** prefetchFor's statement: the aggregates over the rows of `$1`, an array of ids */
  apart: string;
  /**
   * the statements this wrapper made, by the text of the page query they wrap: the same string
   * object every time, so naming it (db/pg-driver/statement-name.ts nameFor) looks up a hash V8 keeps in the string
   * rather than flattening and hashing ~6 kB per request (5.7 % of a device detail's CPU)
   */
  texts: Map<string, string>;
}

/** texts kept per wrapper: the page queries of a model and form (filters, orderings, page sizes) */
const MAX_TEXTS = 256;

const wrappers = new WeakMap<RenderPlan, Wrapper | null>();

function wrapperFor(rc: RequestContext, model: ModelDef, plan: RenderPlan): Wrapper | null {
  let w = wrappers.get(plan);
  if (w !== undefined) return w;
  const { entries, covered, kept } = prefetchEntries(rc, model, plan);
  w = null;
  if (entries.length) {
    const pairs = sql.join(entries.map(([k, v]) => sql`${sql.lit(k)}::text, ${v}`));
    const compiled = sql`${pairs}`.compile(rc.q);
    // compiled once and spliced as text: the aggregates must not take parameters
    if (compiled.parameters.length) throw new Error(`prefetch of ${model.name} takes parameters`);
    w = {
      // row_number() over () numbers the rows in the order the ordered sub-select yields them
      prefix: 'with page as materialized (select s.*, row_number() over () as __ord from (',
      suffix: `) s) select page.*, case when page.__ord = 1 then json_build_object(${compiled.sql}) end as __prefetch from page order by page.__ord`,
      covered,
      kept,
      apart:
        sql`with page as materialized (select t.* from ${sql.table(model.table)} as t where t.id = any(${sql.raw('$1')}::bigint[])) select json_build_object(${sql.raw(compiled.sql)}) as __prefetch`.compile(
          rc.q,
        ).sql,
      texts: new Map(),
    };
  }
  wrappers.set(plan, w);
  return w;
}

/**
 * Wraps a page query (outer alias `t`, in the page's order) so that its first row also carries the
 * prefetched data in `__prefetch`. Without anything to prefetch, the query is returned as it is.
 */
export function withPrefetch(
  rc: RequestContext,
  model: ModelDef,
  plan: RenderPlan,
  page: CompiledQuery,
): CompiledQuery {
  const w = wrapperFor(rc, model, plan);
  if (!w) return page;
  let text = w.texts.get(page.sql);
  if (text === undefined) {
    text = `${w.prefix}${page.sql}${w.suffix}`;
    if (w.texts.size < MAX_TEXTS) w.texts.set(page.sql, text);
  }
  return CompiledQuery.raw(text, [...page.parameters]);
}

/**
 * The prefetch alone, for rows already read by their own statement (crud/read.ts readRows):
 * the page becomes its rows' ids, so this statement takes one array parameter and keeps one plan.
 */
export async function prefetchFor(
  rc: RequestContext,
  model: ModelDef,
  plan: RenderPlan,
  rows: Row[],
): Promise<Prefetched | undefined> {
  const wrapper = wrapperFor(rc, model, plan);
  if (!wrapper || !rows.length) return undefined;
  const ids = rows.map((r) => r.id);
  const res = await rc.q.executeQuery<{ __prefetch: Record<string, unknown> }>(CompiledQuery.raw(wrapper.apart, [ids]));
  return prefetchedOf(rc, model, wrapper, res.rows[0]!.__prefetch);
}

/**
 * Takes the prefetch columns off the rows (hooks and change-log snapshots see plain rows) and
 * returns what they carried, or undefined when the query prefetched nothing.
 */
export function takePrefetched(
  rc: RequestContext,
  model: ModelDef,
  plan: RenderPlan,
  rows: Row[],
): Prefetched | undefined {
  const wrapper = wrapperFor(rc, model, plan);
  // nothing wrapped the query: no row carries anything to take (a brief page of 1,000 prefixes
  // spent ~3 % of its time deleting absent keys)
  if (!wrapper) return undefined;
  let data: Record<string, unknown> | undefined;
  for (const r of rows) {
    if (r.__prefetch) data = r.__prefetch as Record<string, unknown>;
    delete r.__prefetch;
    delete r.__ord;
  }
  return data ? prefetchedOf(rc, model, wrapper, data) : undefined;
}
