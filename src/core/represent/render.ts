/**
 * Turns stored rows into the API's representations: full (all fields, parents nested), brief
 * (`?brief=1`) and nested (inside other objects). Related data is loaded in batches per page.
 */
import { sql } from 'kysely';
import type { CustomFieldDef, RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';
import { type Mode, planRender, type RenderPlan } from './plan.js';
import type { Prefetched } from './prefetch.js';
import { listUrl } from '../urls.js';
import { columnsFor } from './columns.js';
import { type RowContext, rowRenderer } from './row-renderer.js';
import { fetchCount, fetchDepths, fetchM2m, fetchRowsById, fetchTags, runAll, type TagRow } from './load-related.js';

export type { Mode } from './plan.js';

export interface RenderOptions {
  /** field names to leave out (`?exclude=config_context`) */
  exclude?: ReadonlySet<string>;
  /** the rows were created by this request (a token's key is shown once even when retrieval is off) */
  created?: boolean;
  /** related data the page query fetched with the rows (prefetch.ts); the rest is loaded in batches */
  prefetched?: Prefetched;
  /** the plan the read already made for these rows (planRender with the same mode and exclude) */
  plan?: RenderPlan;
}

// the scalar forms live with the row functions that write them out; callers import them from here
export { renderChoice, renderScalar, renderTimestamp } from './row-renderer.js';

/** Adds a related row to the rows to render nested, per target model. */
function addTarget(targets: Map<string, Map<number, Row>>, to: string, row: Row): void {
  let m = targets.get(to);
  if (!m) targets.set(to, (m = new Map()));
  m.set(Number(row.id), row);
}

/** Ids still to load, per target model. */
function addWanted(wanted: Map<string, Set<number>>, to: string, id: unknown): void {
  if (id == null) return;
  let set = wanted.get(to);
  if (!set) wanted.set(to, (set = new Set()));
  set.add(Number(id));
}

/**
 * The related rows these rows show nested that must be loaded by id (foreign keys and generic
 * relations; keys a prefetch covered left out), per target model.
 */
function nestedToLoad(
  rc: RequestContext,
  model: ModelDef,
  plan: RenderPlan,
  rows: Row[],
  covered: (key: string) => boolean,
): Map<string, Set<number>> {
  const wanted = new Map<string, Set<number>>();
  for (const k of plan.fkKeys) {
    if (!covered(`fk:${k}`)) for (const r of rows) addWanted(wanted, model.fields[k]!.to!, r[`${k}_id`]);
  }
  for (const k of plan.genericKeys) {
    if (covered(`gen:${k}`)) continue;
    const g = model.fields[k]!.generic!;
    for (const r of rows) {
      const type = r[g.type] as string | null;
      if (type != null && rc.app.registry.find(type)) addWanted(wanted, type, r[g.id]);
    }
  }
  return wanted;
}

/**
 * How many statements render() would run to load what these rows show without a prefetch: one per
 * m2m field, count, nested target model with an id to load, and tags and depth unless known
 * (render-written.ts chooses between rendering rows in hand and reading them again prefetched).
 */
export function loadsToRender(
  rc: RequestContext,
  model: ModelDef,
  plan: RenderPlan,
  rows: Row[],
  known?: Prefetched,
): number {
  const covered = (key: string) => known?.covered.has(key) ?? false;
  let n =
    plan.m2mKeys.filter((k) => !covered(`m2m:${k}`)).length +
    plan.countKeys.filter((k) => !covered(`count:${k}`)).length;
  if (plan.withTags && !covered('tags') && rows.some((r) => !rc.untagged?.has(`${model.name}:${Number(r.id)}`))) n++;
  if (plan.withDepth && !rows.every((r) => typeof r._depth === 'number')) n++;
  return n + nestedToLoad(rc, model, plan, rows, covered).size;
}

/** Renders rows of one model in one mode. */
export async function render(
  rc: RequestContext,
  model: ModelDef,
  rows: Row[],
  mode: Mode,
  opts: RenderOptions = {},
): Promise<Row[]> {
  if (rows.length === 0) return [];
  const { registry } = rc.app;
  const plan =
    opts.plan ?? planRender(model, mode, { exclude: opts.exclude, dialect: rc.dialect, every: rc.everyField });
  const pre = opts.prefetched;
  const covered = (key: string) => pre?.covered.has(key) ?? false;
  const ids = rows.map((r) => Number(r.id));

  // Related rows to render nested: prefetched ones are in hand, the others are loaded by id.
  const targets = new Map<string, Map<number, Row>>();
  for (const [to, list] of pre?.rows ?? []) for (const r of list) addTarget(targets, to, r);
  const wanted = nestedToLoad(rc, model, plan, rows, covered);

  const m2mMembers = new Map<string, Map<number, number[]>>();
  const counts = new Map<string, Map<number, number>>();
  let tags = pre?.tags ?? new Map<number, TagRow[]>();
  let depths = pre?.depths ?? new Map<number, number>();
  let cfs: CustomFieldDef[] = [];

  const tasks: Array<() => Promise<unknown>> = [];
  for (const k of plan.m2mKeys) {
    if (covered(`m2m:${k}`)) m2mMembers.set(k, pre!.m2m.get(k)!);
    else tasks.push(async () => m2mMembers.set(k, await fetchM2m(rc, model.fields[k]!.through!, ids)));
  }
  for (const k of plan.countKeys) {
    if (covered(`count:${k}`)) counts.set(k, pre!.counts.get(k)!);
    else tasks.push(async () => counts.set(k, await fetchCount(rc, model, model.counts[k]!, ids)));
  }
  if (plan.withTags && !covered('tags')) tasks.push(async () => (tags = await fetchTags(rc, model, ids)));
  if (plan.withDepth && !covered('depth')) {
    if (rows.every((r) => typeof r._depth === 'number'))
      depths = new Map(rows.map((r) => [Number(r.id), r._depth as number]));
    else tasks.push(async () => (depths = await fetchDepths(rc, model, ids)));
  }
  if (plan.withCustomFields) tasks.push(async () => (cfs = await rc.app.customFields(rc, model.name)));
  await runAll(rc, tasks);

  // m2m members loaded in batches join the nested loads of their target model
  for (const k of plan.m2mKeys) {
    if (covered(`m2m:${k}`)) continue;
    const to = model.fields[k]!.to!;
    for (const list of m2mMembers.get(k)!.values()) for (const id of list) addWanted(wanted, to, id);
  }
  for (const [to, set] of wanted) {
    const have = targets.get(to);
    if (have) for (const id of have.keys()) set.delete(id);
  }
  const nested = new Map<string, Map<number, Row>>();
  const toRender = new Set([...targets.keys(), ...wanted.keys()]);
  await runAll(
    rc,
    [...toRender].map((to) => async () => {
      const target = registry.get(to);
      const loaded = wanted.get(to)?.size
        ? await fetchRowsById(
            rc,
            target,
            [...wanted.get(to)!],
            columnsFor(target, planRender(target, 'nested', { dialect: rc.dialect })),
          )
        : [];
      const targetRows = [...(targets.get(to)?.values() ?? []), ...loaded];
      const rendered = await render(rc, target, targetRows, 'nested', { prefetched: pre?.inner?.get(to) });
      nested.set(to, new Map(rendered.map((r) => [Number(r.id), r])));
    }),
  );
  const cfNested = plan.withCustomFields
    ? await loadCustomFieldObjects(rc, cfs, rows)
    : new Map<string, Map<number, Row>>();
  const tagModel = registry.find('extras.tag');

  const { fn, targets: slots } = rowRenderer(model, plan, !!tagModel);
  const c: RowContext = {
    rc,
    urlPrefix: listUrl(rc.baseUrl, model),
    pagePrefix: `${rc.baseUrl}/${model.app}/${model.path}/`,
    nested,
    m2m: m2mMembers,
    counts,
    tags,
    depths,
    cfs,
    cfNested,
    tagModel,
  };
  const n = slots.map((to) => nested.get(to));
  const out: Row[] = rows.map((row) => fn(row, Number(row.id), c, n));
  if (model.hooks.represent) {
    // rows a hook declares (ModelDef.representRows): those the page's statement read, else read now
    const readRows = async (key: string) =>
      pre?.hookRows?.get(key) ?? (await sql<Row>`${model.representRows![key]!.select(ids)}`.execute(rc.q)).rows;
    await model.hooks.represent(rc, rows, out, { mode, created: !!opts.created, readRows });
  }
  return out;
}

/** Loads the nested objects referenced by object/multiobject custom fields of a page. */
async function loadCustomFieldObjects(rc: RequestContext, cfs: CustomFieldDef[], rows: Row[]) {
  const out = new Map<string, Map<number, Row>>();
  for (const cf of cfs) {
    if ((cf.type !== 'object' && cf.type !== 'multiobject') || !cf.object_type) continue;
    const target = rc.app.registry.find(cf.object_type);
    if (!target) continue;
    const ids = new Set<number>();
    for (const r of rows) {
      const v = (r.custom_field_data as Row | null)?.[cf.name];
      for (const x of Array.isArray(v) ? v : v == null ? [] : [v]) if (Number.isInteger(Number(x))) ids.add(Number(x));
    }
    const rendered = await render(rc, target, await fetchRowsById(rc, target, [...ids]), 'nested');
    out.set(cf.name, new Map(rendered.map((r) => [Number(r.id), r])));
  }
  return out;
}
