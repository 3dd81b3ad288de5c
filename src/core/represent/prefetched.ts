/**
 * What a prefetch brought back (prefetch.ts builds the statement): the JSON object on the page's
 * first row, or on the one row of the statement run apart, decoded into rows that look exactly like
 * rows the driver parses (timestamps, inet) and maps by id, so render() cannot tell the paths apart.
 */
import { parseInet, parseTimestamptz } from '../../db/type-parsers.js';
import type { RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';
import { keptCountsOf, m2mMap, numberMap, type TagRow, tagsMap } from './load-related.js';

/** What the page query fetched beyond the rows' own columns. */
export interface Prefetched {
  /** `fk:<field>`, `m2m:<field>`, `gen:<field>`, `count:<field>`, `tags`, `depth`: what needs no further load */
  covered: ReadonlySet<string>;
  /** rows to render nested, per target model */
  rows: Map<string, Row[]>;
  /**
   * per target model, the parents its nested form shows in turn (a device type's manufacturer
   * inside a device): rows in hand for render() of those nested rows, which loads any others
   */
  inner?: Map<string, Prefetched>;
  m2m: Map<string, Map<number, number[]>>;
  counts: Map<string, Map<number, number>>;
  tags?: Map<number, TagRow[]>;
  depths?: Map<number, number>;
  /** the rows of the model's representRows, by key (`hook:<key>`) */
  hookRows?: Map<string, Row[]>;
}

/** what a prefetch statement's entries cover, known when the statement was built */
export interface PrefetchShape {
  /** what the prefetched data covers (Prefetched.covered) */
  covered: ReadonlySet<string>;
  /** the counts the `kept` entry holds: [count key, `table.column`] */
  kept: Array<[string, string]>;
}

/** per model: converters that turn a JSON row's values into what the driver's parsers produce */
const converters = new WeakMap<ModelDef, Array<[string, (s: string) => unknown]>>();

function convertersOf(model: ModelDef): Array<[string, (s: string) => unknown]> {
  let list = converters.get(model);
  if (!list) {
    list = [];
    if (model.timestamps) list.push(['created', parseTimestamptz], ['last_updated', parseTimestamptz]);
    for (const [k, f] of Object.entries(model.fields)) {
      if (f.kind === 'datetime') list.push([k, parseTimestamptz]);
      else if (f.kind === 'ipaddress') list.push([k, parseInet]);
    }
    converters.set(model, list);
  }
  return list;
}

/** A related row fetched as JSON, made to look like a row the driver parsed. */
function normaliseJsonRow(model: ModelDef, row: Row): Row {
  for (const [k, convert] of convertersOf(model)) {
    const v = row[k];
    if (typeof v === 'string') row[k] = convert(v);
  }
  return row;
}

/** The prefetched JSON object, as Prefetched: rows normalised, maps by id. */
export function prefetchedOf(
  rc: RequestContext,
  model: ModelDef,
  wrapper: PrefetchShape,
  data: Record<string, unknown>,
): Prefetched {
  const out: Prefetched = { covered: wrapper.covered, rows: new Map(), m2m: new Map(), counts: new Map() };
  for (const [key, value] of Object.entries(data)) {
    const [kind, name, innerName] = key.split(':') as [string, string, string?];
    const list = value as Row[];
    if (kind === 'rows') {
      const target = rc.app.registry.get(name);
      out.rows.set(
        name,
        list.map((r) => normaliseJsonRow(target, r)),
      );
    } else if (kind === 'inner') {
      // covers nothing: render() uses these rows and still loads any it lacks
      out.inner ??= new Map();
      let inner = out.inner.get(name);
      if (!inner)
        out.inner.set(name, (inner = { covered: new Set(), rows: new Map(), m2m: new Map(), counts: new Map() }));
      const target = rc.app.registry.get(innerName!);
      inner.rows.set(
        innerName!,
        list.map((r) => normaliseJsonRow(target, r)),
      );
    } else if (kind === 'm2m') out.m2m.set(name, m2mMap(list as Array<{ o: unknown; m: unknown }>));
    else if (kind === 'count') out.counts.set(name, numberMap(list as Array<{ id: unknown; n: unknown }>));
    else if (kind === 'kept') {
      // every count the entry holds gets its map: an owner with no row counts 0 (render.ts)
      const byPair = keptCountsOf(
        value,
        wrapper.kept.map(([, pair]) => pair),
      );
      for (const [k, pair] of wrapper.kept) out.counts.set(k, byPair.get(pair)!);
    } else if (kind === 'tags') out.tags = tagsMap(list as unknown as Array<TagRow & { object_id: unknown }>);
    else if (kind === 'depth') out.depths = numberMap(list as Array<{ id: unknown; n: unknown }>);
    else if (kind === 'hook') {
      const of = rc.app.registry.get(model.representRows![name]!.model);
      (out.hookRows ??= new Map()).set(
        name,
        list.map((r) => normaliseJsonRow(of, r)),
      );
    }
  }
  return out;
}
