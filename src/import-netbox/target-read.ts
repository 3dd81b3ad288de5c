/**
 * The target's objects as its API renders them (read in this process, in the source's dialect),
 * and how two renderings of one object are compared: URLs name their path only (the two sides
 * answer under different hosts), numbers and their text alike (a decimal rendered 1.5 or "1.50").
 */
import type { RequestContext } from '../core/context.js';
import { listObjects } from '../core/crud/read.js';
import type { ModelDef } from '../core/model/types.js';
import type { Rep } from './source.js';
import { type InputRules, toInput } from './to-input.js';

const PAGE = 1000;

/** target objects by id */
export async function readTarget(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Map<number, Rep>> {
  const out = new Map<number, Rep>();
  for (let i = 0; i < ids.length; i += PAGE) {
    const params = new Map([
      ['id', ids.slice(i, i + PAGE).map(String)],
      ['limit', [String(PAGE)]],
      ['exclude', ['config_context']],
    ]);
    const page = (await listObjects(rc, model, params)) as { results: Rep[] };
    for (const r of page.results) out.set(Number(r.id), r);
  }
  return out;
}

/** every target object of a type, in id order */
export async function* targetPages(rc: RequestContext, model: ModelDef): AsyncGenerator<Rep[]> {
  for (let offset = 0; ; offset += PAGE) {
    const params = new Map([
      ['limit', [String(PAGE)]],
      ['offset', [String(offset)]],
      ['ordering', ['id']],
      ['exclude', ['config_context']],
    ]);
    const page = (await listObjects(rc, model, params)) as { results: Rep[] };
    if (page.results.length) yield page.results;
    if (page.results.length < PAGE) return;
  }
}

const ABSOLUTE = /^https?:\/\/[^/]+(\/.*)$/;

/** a value with its absolute URLs made paths, for comparing two sides */
function normalized(v: unknown): unknown {
  if (typeof v === 'string') {
    // a decimal NetBox renders as text ("1.50") and this service as a number, or the other way
    if (/^-?\d+\.\d+$/.test(v)) return String(Number(v));
    return ABSOLUTE.exec(v)?.[1] ?? v;
  }
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(normalized);
  if (v && typeof v === 'object') {
    const out: Rep = {};
    for (const k of Object.keys(v).sort()) out[k] = normalized((v as Rep)[k]);
    return out;
  }
  return v;
}

const same = (a: unknown, b: unknown) => JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));

/** the first key whose values differ, as text, or null when every key both show agrees */
export function firstDifference(a: Rep, b: Rep, keys: Iterable<string>): string | null {
  for (const k of keys) {
    if (!(k in a) || !(k in b)) continue;
    if (!same(a[k], b[k]))
      return `${k}: ${JSON.stringify(normalized(a[k])).slice(0, 120)} at the source, ${JSON.stringify(normalized(b[k])).slice(0, 120)} here`;
  }
  return null;
}

/**
 * Whether the target's object is the source's, as far as a write sets it (what the first pass
 * would write); true, or the first difference
 */
export function sameObject(
  model: ModelDef,
  source: Rep,
  target: Rep,
  rules: InputRules,
  deferred: Set<string>,
): true | string {
  const a = toInput(model, source, rules, deferred);
  const b = toInput(model, target, rules, deferred);
  return firstDifference(a, b, Object.keys(a)) ?? true;
}
