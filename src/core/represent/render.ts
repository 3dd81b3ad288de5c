/**
 * Turns stored rows into the API's representations: full (all fields, parents nested), brief
 * (`?brief=1`) and nested (inside other objects). Related data is loaded in batches per page.
 */
import type { CustomFieldDef, RequestContext } from '../context.js';
import type { FieldDef, ModelDef } from '../model/types.js';
import { detailUrl } from '../urls.js';
import { renderCustomFields } from './custom-fields.js';
import { fetchCount, fetchDepths, fetchM2m, fetchRowsById, fetchTags, runAll, type Row, type TagRow } from './load-related.js';

export type Mode = 'full' | 'brief' | 'nested';

export interface RenderOptions {
  /** field names to leave out (`?exclude=config_context`) */
  exclude?: Set<string>;
  /** the rows were created by this request (a token's key is shown once even when retrieval is off) */
  created?: boolean;
}

/** Field keys shown in a mode, in declaration order. */
export function fieldsFor(model: ModelDef, mode: Mode): string[] {
  if (mode === 'full') {
    return Object.entries(model.fields)
      .filter(([, f]) => !f.writeOnly)
      .map(([k]) => k);
  }
  return mode === 'brief' ? model.brief : (model.nested as string[]);
}

export function renderChoice(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return null;
  return { value: v, label: f.choices!.labels.get(v as string) ?? String(v) };
}

function renderScalar(f: FieldDef, v: unknown): unknown {
  switch (f.kind) {
    case 'choice':
      return renderChoice(f, v);
    case 'string':
    case 'text':
    case 'slug':
      return v ?? (f.nullable ? null : '');
    case 'strings':
      return v ?? (f.nullable ? null : []);
    case 'ipaddress':
      // PostgreSQL prints a host address without its mask; the API always shows it
      return typeof v === 'string' && !v.includes('/') ? `${v}/${v.includes(':') ? 128 : 32}` : (v ?? null);
    default:
      return v ?? null;
  }
}

/** spec: created is a plain date, last_updated an ISO 8601 UTC timestamp */
function renderTimestamp(key: 'created' | 'last_updated', row: Row): unknown {
  if (key === 'last_updated') return row.last_updated ?? null;
  return typeof row.created === 'string' ? row.created.slice(0, 10) : null;
}

function tagOut(baseUrl: string, tagModel: ModelDef, t: TagRow) {
  return { id: t.id, url: detailUrl(baseUrl, tagModel, t.id), display: t.name, name: t.name, slug: t.slug, color: t.color };
}

/** Renders rows of one model in one mode. */
export async function render(rc: RequestContext, model: ModelDef, rows: Row[], mode: Mode, opts: RenderOptions = {}): Promise<Row[]> {
  if (rows.length === 0) return [];
  const { registry } = rc.app;
  const keys = fieldsFor(model, mode).filter((k) => !opts.exclude?.has(k));
  const ids = rows.map((r) => Number(r.id));
  const full = mode === 'full';
  const showCounts = mode !== 'nested';

  // Plan the batched loads.
  const fkByTarget = new Map<string, Set<number>>();
  const m2mKeys: string[] = [];
  for (const k of keys) {
    const f = model.fields[k];
    if (!f) continue;
    if (f.kind === 'fk') {
      const set = fkByTarget.get(f.to!) ?? new Set<number>();
      for (const r of rows) if (r[`${k}_id`] != null) set.add(Number(r[`${k}_id`]));
      fkByTarget.set(f.to!, set);
    } else if (f.kind === 'm2m') m2mKeys.push(k);
    else if (f.kind === 'generic') {
      for (const r of rows) {
        const type = r[f.generic!.type] as string | null;
        const id = r[f.generic!.id];
        if (type == null || id == null || !registry.find(type)) continue;
        const set = fkByTarget.get(type) ?? new Set<number>();
        set.add(Number(id));
        fkByTarget.set(type, set);
      }
    }
  }
  const countKeys = full ? Object.keys(model.counts) : showCounts ? keys.filter((k) => k in model.counts) : [];
  const withDepth = !!model.treeParent;
  const depthKnown = withDepth && rows.every((r) => typeof r._depth === 'number');
  const withTags = full && model.tags;
  const withCf = full && model.customFields;

  const nested = new Map<string, Map<number, Row>>();
  const m2mMembers = new Map<string, Map<number, number[]>>();
  const counts = new Map<string, Map<number, number>>();
  let tags = new Map<number, TagRow[]>();
  let depths = new Map<number, number>();
  let cfs: CustomFieldDef[] = [];

  const tasks: Array<() => Promise<unknown>> = [];
  for (const k of m2mKeys) {
    tasks.push(async () => m2mMembers.set(k, await fetchM2m(rc, model.fields[k]!.through!, ids)));
  }
  for (const k of countKeys) {
    tasks.push(async () => counts.set(k, await fetchCount(rc, model, model.counts[k]!, ids)));
  }
  if (withTags) tasks.push(async () => (tags = await fetchTags(rc, model, ids)));
  if (depthKnown) depths = new Map(rows.map((r) => [Number(r.id), r._depth as number]));
  else if (withDepth) tasks.push(async () => (depths = await fetchDepths(rc, model, ids)));
  if (withCf) tasks.push(async () => (cfs = await rc.app.customFields(rc.q, model.name)));
  await runAll(rc, tasks);

  // m2m members join the nested loads of their target model
  for (const k of m2mKeys) {
    const to = model.fields[k]!.to!;
    const set = fkByTarget.get(to) ?? new Set<number>();
    for (const list of m2mMembers.get(k)!.values()) for (const id of list) set.add(id);
    fkByTarget.set(to, set);
  }
  await runAll(
    rc,
    [...fkByTarget].map(([to, set]) => async () => {
      const target = registry.get(to);
      const targetRows = await fetchRowsById(rc, target, [...set]);
      const rendered = await render(rc, target, targetRows, 'nested');
      nested.set(to, new Map(rendered.map((r) => [Number(r.id), r])));
    }),
  );
  const cfNested = withCf ? await loadCustomFieldObjects(rc, cfs, rows) : new Map<string, Map<number, Row>>();
  const tagModel = registry.find('extras.tag');

  const out: Row[] = rows.map((row) => {
    const id = Number(row.id);
    const o: Row = { id, url: detailUrl(rc.baseUrl, model, id), display: model.display(row) };
    for (const k of keys) {
      const f = model.fields[k];
      if (!f) {
        if (k === '_depth') o._depth = depths.get(id) ?? 0;
        else if (k in model.counts) o[k] = counts.get(k)?.get(id) ?? 0;
        // a brief form naming created/last_updated (journal entries) shows them as the full form does
        else if (model.timestamps && (k === 'created' || k === 'last_updated')) o[k] = renderTimestamp(k, row);
        else if (k in row) o[k] = row[k];
        continue;
      }
      if (f.kind === 'fk') {
        const fid = row[`${k}_id`];
        o[k] = fid == null ? null : (nested.get(f.to!)?.get(Number(fid)) ?? null);
      } else if (f.kind === 'm2m') {
        const list = m2mMembers.get(k)?.get(id) ?? [];
        const objs = nested.get(f.to!)!;
        o[k] = list.map((mid) => objs.get(mid)).filter(Boolean);
      } else if (f.kind === 'generic') {
        const type = row[f.generic!.type] as string | null;
        const gid = row[f.generic!.id];
        o[k] = type == null || gid == null ? null : (nested.get(type)?.get(Number(gid)) ?? null);
      } else if (f.kind === 'computed') {
        o[k] = row[f.column ?? k] ?? null;
      } else {
        o[k] = renderScalar(f, row[k]);
      }
    }
    if (full) {
      if (withTags && tagModel) o.tags = (tags.get(id) ?? []).map((t) => tagOut(rc.baseUrl, tagModel, t));
      if (withCf) o.custom_fields = renderCustomFields(rc, cfs, row.custom_field_data as Row | null, cfNested);
      if (model.timestamps) {
        o.created = renderTimestamp('created', row);
        o.last_updated = renderTimestamp('last_updated', row);
      }
    }
    if (full) for (const k of countKeys) o[k] = counts.get(k)?.get(id) ?? 0;
    // NetBox: _depth is present in every form of a tree model
    if (withDepth) o._depth = depths.get(id) ?? 0;
    return o;
  });
  if (model.hooks.represent) await model.hooks.represent(rc, rows, out, { mode, created: !!opts.created });
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
