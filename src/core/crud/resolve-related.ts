/**
 * Resolves related objects written by id or by attributes (spec: Writing related objects), in
 * batches: one query per target model for all numeric ids of a request, one per attribute dict.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import { attributesCondition, ConstraintError, flattenAttributes } from '../query/constraints.js';
import { pyRepr } from './py-repr.js';

export interface RelatedRef {
  /** model identity of the target */
  to: string;
  value: unknown;
  /** called with the resolved id, or with an error message */
  done(id: number | null, error?: string): void;
}

/** a value that can name a related object: a whole number, a string of digits, or a dictionary of attributes */
function isRelatedValue(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  if (typeof v === 'string') return /^\d+$/.test(v);
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** NetBox 3.4 WritableNestedSerializer's message for anything but an id or a dictionary */
const unrecognizedRelated = (v: unknown) =>
  `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${pyRepr(v)}`;

/**
 * Resolves every ref; each ref's `done` receives its id or its error. A value that is neither an
 * id nor a dictionary (null, a boolean, a list, a fraction, a word) is refused here whatever the
 * relation kind, so no member of a list is ever skipped silently.
 */
export async function resolveRelated(rc: RequestContext, refs: RelatedRef[]): Promise<void> {
  const byTarget = new Map<string, RelatedRef[]>();
  for (const r of refs) {
    if (!isRelatedValue(r.value)) {
      r.done(null, unrecognizedRelated(r.value));
      continue;
    }
    const list = byTarget.get(r.to) ?? [];
    list.push(r);
    byTarget.set(r.to, list);
  }
  for (const [to, list] of byTarget) {
    const target = rc.app.registry.get(to);
    const numeric = list.filter((r) => typeof r.value === 'number' || typeof r.value === 'string');
    if (numeric.length) {
      const ids = [...new Set(numeric.map((r) => Number(r.value)))].filter(Number.isSafeInteger);
      const found = await sql<{
        id: number;
      }>`select id from ${sql.table(target.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
      const have = new Set(found.rows.map((r) => Number(r.id)));
      for (const r of numeric) {
        const id = Number(r.value);
        if (have.has(id)) r.done(id);
        else r.done(null, `Related object not found using the provided numeric ID: ${r.value}`);
      }
    }
    for (const r of list.filter((x) => typeof x.value === 'object')) {
      await resolveByAttributes(rc, target, r);
    }
  }
}

async function resolveByAttributes(rc: RequestContext, target: ModelDef, r: RelatedRef) {
  const attrs = r.value as Record<string, unknown>;
  // Django's get(): only an `__in` lookup takes a list (`{"id": [1]}` names no object)
  if (flattenAttributes(attrs).some(([k, v]) => Array.isArray(v) !== k.endsWith('__in')))
    return r.done(null, `Related object not found using the provided attributes: ${pyRepr(attrs)}`);
  let cond: ReturnType<typeof attributesCondition>;
  try {
    cond = attributesCondition(rc.app.registry, target, attrs);
  } catch (err) {
    if (!(err instanceof ConstraintError)) throw err;
    return r.done(null, `Related object not found using the provided attributes: ${pyRepr(attrs)}`);
  }
  const found = await sql<{
    id: number;
  }>`select t.id from ${sql.table(target.table)} as t where ${cond} limit 2`.execute(rc.q);
  if (found.rows.length === 1) return r.done(Number(found.rows[0]!.id));
  if (found.rows.length === 0)
    return r.done(null, `Related object not found using the provided attributes: ${pyRepr(attrs)}`);
  return r.done(null, `Multiple objects match the provided attributes: ${pyRepr(attrs)}`);
}
