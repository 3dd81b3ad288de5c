/**
 * One row's representation, built by a function written for its plan (model, mode, fields shown).
 *
 * Walking the plan's keys for every row costs a dictionary lookup of each field, a branch on its
 * kind, a `${key}_id` string per foreign key, and a property added by computed name; objects
 * built key by key through one shared store site end up with many shapes, and both their building
 * and JSON.stringify's walk over them pay for it (such a per-row loop was two thirds of render()'s
 * own time on a sites page). The function written here builds the object as one literal whose
 * keys are fixed, in the plan's order, so every row of a plan shares one shape.
 *
 * Only the plan's keys and field kinds go into the source text, each through JSON.stringify; no
 * value from a request does. The per-request data (nested rows, counts, tags...) come in `c`.
 */
import type { CustomFieldDef, RequestContext } from '../context.js';
import type { FieldDef, ModelDef, Row } from '../model/types.js';
import { detailUrl } from '../urls.js';
import { renderCustomFields } from './custom-fields.js';
import type { RenderPlan } from './plan.js';
import type { Dialect } from '../model/dialect.js';
import type { TagRow } from './load-related.js';

/** What a page's rows are rendered with, gathered once per render() call. */
export interface RowContext {
  rc: RequestContext;
  /** `<base>/api/<app>/<path>/`: a row's url is this and its id */
  urlPrefix: string;
  /** `<base>/<app>/<path>/`: a row's page in the web interface is this and its id (4.4's display_url) */
  pagePrefix: string;
  /** rendered nested rows per target model */
  nested: Map<string, Map<number, Row>>;
  m2m: Map<string, Map<number, number[]>>;
  counts: Map<string, Map<number, number>>;
  tags: Map<number, TagRow[]>;
  depths: Map<number, number>;
  cfs: CustomFieldDef[];
  cfNested: Map<string, Map<number, Row>>;
  tagModel: ModelDef | undefined;
}

type RowFn = (row: Row, id: number, c: RowContext, n: Array<Map<number, Row> | undefined>) => Row;

interface Compiled {
  fn: RowFn;
  /** the target model of each slot of `n` (fks and m2m fields, resolved once per page) */
  targets: string[];
}

export function renderChoice(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return null;
  return { value: v, label: f.choices!.labels.get(v as string) ?? String(v) };
}

/** A stored scalar as the API shows it (GraphQL reads its scalars through this too). */
export function renderScalar(f: FieldDef, v: unknown): unknown {
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
export function renderTimestamp(key: 'created' | 'last_updated', row: Row): unknown {
  if (key === 'last_updated') return row.last_updated ?? null;
  return typeof row.created === 'string' ? row.created.slice(0, 10) : null;
}

function tagOut(baseUrl: string, tagModel: ModelDef, t: TagRow, dialect: Dialect) {
  const out = {
    id: t.id,
    url: detailUrl(baseUrl, tagModel, t.id),
    display: t.name,
    name: t.name,
    slug: t.slug,
    color: t.color,
  };
  // NetBox 4's nested tag is its brief form, with the description (#15238)
  return dialect === '3.4' ? out : { ...out, description: t.description ?? '' };
}

/** the helpers the written functions call: what is not worth writing out per plan */
const helpers = {
  choice: renderChoice,
  scalar: renderScalar,
  timestamp: renderTimestamp,
  m2m(
    c: RowContext,
    key: string,
    objs: Map<number, Row> | undefined,
    id: number,
    slugField: string | undefined,
  ): unknown[] {
    const list = c.m2m.get(key)?.get(id) ?? [];
    const members = objs ? list.map((mid) => objs.get(mid)).filter(Boolean) : [];
    // a slug-written relation shows the same attribute it is written with
    return slugField ? members.map((m) => (m as Row)[slugField]) : members;
  },
  generic(c: RowContext, type: unknown, gid: unknown): unknown {
    return type == null || gid == null ? null : (c.nested.get(type as string)?.get(Number(gid)) ?? null);
  },
  tags(c: RowContext, id: number): unknown[] {
    return (c.tags.get(id) ?? []).map((t) => tagOut(c.rc.baseUrl, c.tagModel!, t, c.rc.dialect));
  },
  customFields(c: RowContext, data: unknown): Row {
    return renderCustomFields(c.rc, c.cfs, data as Row | null, c.cfNested);
  },
};

const compiled = new WeakMap<RenderPlan, Map<string, Compiled>>();

/** The row function of a plan, written on first use. */
export function rowRenderer(model: ModelDef, plan: RenderPlan, withTagModel: boolean): Compiled {
  let byVariant = compiled.get(plan);
  if (!byVariant) compiled.set(plan, (byVariant = new Map()));
  const variant = withTagModel ? 'tags' : 'plain';
  let out = byVariant.get(variant);
  if (!out) byVariant.set(variant, (out = write(model, plan, withTagModel)));
  return out;
}

/**
 * The source of one plan's function. Keys come in the order the representation shows them; a key
 * named twice (a count in a brief form and again among the counts, `_depth` in the keys and as a
 * tree's depth) keeps its first place and takes its last value, in a literal as by assignment.
 */
function write(model: ModelDef, plan: RenderPlan, withTagModel: boolean): Compiled {
  const fields: FieldDef[] = [];
  const targets: string[] = [];
  const field = (f: FieldDef) => `F[${fields.push(f) - 1}]`;
  const slot = (to: string) => `n[${targets.push(to) - 1}]`;
  const q = (s: string) => JSON.stringify(s);
  // the object is one literal up to a key it may lack (`k in row`), then assignments in order
  const only = plan.only;
  const wanted = (name: string) => !only || only.has(name);
  const entries: Array<[string, string]> = [];
  const steps: string[] = [];
  const put = (key: string, expr: string) =>
    steps.length ? steps.push(`o[${q(key)}] = ${expr};`) : entries.push([key, expr]);
  if (wanted('id')) put('id', 'id');
  if (wanted('url')) put('url', 'c.urlPrefix + id + "/"');
  // NetBox 4.1+: the object's page (web/model-pages serves /<app>/<path>/<id>/)
  if (plan.withDisplayUrl) put('display_url', 'c.pagePrefix + id + "/"');
  if (!(plan.mode === 'brief' && plan.dialect === '3.4' && model.briefWithoutDisplay) && wanted('display'))
    put('display', 'model.display(row)');

  plan.keys.forEach((k, i) => {
    const f = model.fields[k];
    const v = `row[${q(k)}]`;
    // the key's name in the plan's dialect (a rack's `type` is 4.4's `form_factor`)
    const name = plan.names[i]!;
    if (!f) {
      if (k === '_depth') put(name, 'c.depths.get(id) ?? 0');
      else if (k in model.counts) put(name, `c.counts.get(${q(k)})?.get(id) ?? 0`);
      // a brief form naming created/last_updated (journal entries) shows them as the full form does
      else if (model.timestamps && k === 'created') put(name, 'H.timestamp("created", row)');
      else if (model.timestamps && k === 'last_updated') put(name, 'row.last_updated ?? null');
      else steps.push(`if (${q(k)} in row) o[${q(name)}] = ${v};`);
      return;
    }
    switch (f.kind) {
      case 'fk':
        put(name, `(v = row[${q(`${k}_id`)}]) == null ? null : (${slot(f.to!)}?.get(Number(v)) ?? null)`);
        break;
      case 'm2m':
        put(name, `H.m2m(c, ${q(k)}, ${slot(f.to!)}, id, ${f.slugField ? q(f.slugField) : 'undefined'})`);
        break;
      case 'generic':
        put(name, `H.generic(c, row[${q(f.generic!.type)}], row[${q(f.generic!.id)}])`);
        break;
      case 'computed':
        put(name, `row[${q(f.column ?? k)}] ?? null`);
        break;
      case 'choice':
        put(name, `H.choice(${field(f)}, ${v})`);
        break;
      case 'string':
      case 'text':
      case 'slug':
        put(name, `${v} ?? ${f.nullable ? 'null' : '""'}`);
        break;
      case 'strings':
        put(name, `${v} ?? ${f.nullable ? 'null' : '[]'}`);
        break;
      case 'ipaddress':
        put(name, `H.scalar(${field(f)}, ${v})`);
        break;
      default:
        // an integer a dialect shows in a larger unit (a VM's disk: GB in 3.4, MB stored)
        if (f.scaleIn?.[plan.dialect])
          put(name, `(v = ${v}) == null ? null : Math.round(v / ${Number(f.scaleIn[plan.dialect])})`);
        else put(name, `${v} ?? null`);
    }
  });
  if (plan.mode === 'full') {
    if (plan.withTags && withTagModel) put('tags', 'H.tags(c, id)');
    if (plan.withCustomFields) put('custom_fields', 'H.customFields(c, row.custom_field_data)');
    if (model.timestamps) {
      if (wanted('created')) put('created', 'H.timestamp("created", row)');
      if (wanted('last_updated')) put('last_updated', 'row.last_updated ?? null');
    }
    for (const k of plan.countKeys) put(k, `c.counts.get(${q(k)})?.get(id) ?? 0`);
  }
  // NetBox: _depth is present in every form of a tree model
  if (plan.withDepth) put('_depth', 'c.depths.get(id) ?? 0');

  const literal = entries.map(([k, e]) => `${q(k)}: ${e}`).join(',\n    ');
  const body = `return function renderRow(row, id, c, n) {\n  let v;\n  const o = {\n    ${literal}\n  };\n  ${steps.join('\n  ')}\n  return o;\n};`;
  // the text holds only the plan's keys and columns, quoted
  const fn = new Function('model', 'F', 'H', body)(model, fields, helpers) as RowFn;
  return { fn, targets };
}
