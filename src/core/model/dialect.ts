/**
 * API dialects: the same models shown as NetBox 3.4 shows them (the specification's shapes, the
 * default) or as NetBox 4.4 does (docs/api-dialects.md). A request's dialect is chosen by its
 * `Accept: application/json; version=X`, else its token's `api_dialect`, else the deployment's
 * API_DIALECT (http/dialect.ts). Only representations and documents differ: a write or a filter
 * takes the names of both dialects wherever they do not conflict, so a client sending `type` or
 * `form_factor` for a rack is understood whichever dialect it reads.
 */
import type { CustomFilter, FieldDef, ModelDef } from './types.js';

export type Dialect = '3.4' | '4.4';

/** the dialects served, the default first */
export const DIALECTS: readonly Dialect[] = ['3.4', '4.4'];

export function isDialect(v: unknown): v is Dialect {
  return v === '3.4' || v === '4.4';
}

/** The release a dialect announces in `/api/status/` (netbox-version) */
export const DIALECT_RELEASE: Record<Dialect, string> = { '3.4': '3.4.0', '4.4': '4.4.10' };

/**
 * What NetBox 4.4's API changed about a model that its fields cannot say themselves. Field keys are
 * this declaration's (the stored names, 3.4's wire names).
 */
export interface Netbox44 {
  /**
   * the brief form's fields besides id, url and display, in the order NetBox 4.4 renders them (its
   * serializer's `brief_fields` in its full form's order; every one gained `description`, NetBox
   * #15238). Its nested form is the same without the counts, which NetBox 4 reads from annotations
   * a nested object does not carry. Absent: 3.4's brief form and the description (plan.ts brief44).
   */
  brief?: string[];
  /** fields 4.4 shows under another name: key -> 4.4's name (a rack's `type` is `form_factor`) */
  renamed?: Record<string, string>;
  /** fields 4.4 no longer shows (a device's `device_role`) */
  hidden?: string[];
  /**
   * filters under NetBox 4's names (`object_type`, `object_type_id` of a list of object types):
   * taken in both dialects, left out of 3.4's documents. Where 3.4 has a filter of the same name
   * with another meaning (a custom field's `object_type` is its related object type there), a 4.4
   * request gets 4.4's and a 3.4 request keeps 3.4's.
   */
  filters?: Record<string, CustomFilter>;
}

/** Whether a model's tags or custom fields (`ModelDef.tags`, `customFields`) are shown in a dialect. */
export function hasIn(feature: boolean | Dialect, dialect: Dialect): boolean {
  return feature === true || feature === dialect;
}

/** Whether a field's value is shown in a dialect's representations. */
export function shownIn(model: ModelDef, key: string, f: FieldDef | undefined, dialect: Dialect): boolean {
  if (f?.dialect && f.dialect !== dialect) return false;
  return dialect === '3.4' || !model.netbox44?.hidden?.includes(key);
}

/** A field's name on the wire in a dialect. */
export function wireName(model: ModelDef, key: string, dialect: Dialect): string {
  return dialect === '4.4' ? (model.netbox44?.renamed?.[key] ?? key) : key;
}

const inputNames = new WeakMap<ModelDef, Map<string, string>>();

/**
 * The other names a write or a filter may use for a model's fields: 4.4's name -> the field key.
 * Taken in both dialects (a 3.4 script that learned `form_factor` is not refused).
 */
export function otherNames(model: ModelDef): Map<string, string> {
  let m = inputNames.get(model);
  if (!m) {
    m = new Map();
    for (const [key, name] of Object.entries(model.netbox44?.renamed ?? {})) {
      // a field of that name that is written itself keeps it (a read-only one is only shown)
      const own = model.fields[name];
      if (!own || own.readOnly || own.kind === 'computed') m.set(name, key);
    }
    inputNames.set(model, m);
  }
  return m;
}

/**
 * A written object with the other names it uses (otherNames) turned into field keys. Where both
 * names are sent, the field's own key wins. The object is returned as is when it uses none.
 */
export function withFieldNames(model: ModelDef, input: Record<string, unknown>): Record<string, unknown> {
  const names = otherNames(model);
  if (names.size === 0) return input;
  let out: Record<string, unknown> | null = null;
  for (const [name, key] of names) {
    if (!(name in input)) continue;
    out ??= { ...input };
    if (!(key in out)) out[key] = out[name];
    delete out[name];
  }
  return out ?? input;
}

/** Field errors (`{key: [messages]}`) with each key named as the dialect names the field. */
export function errorsInDialect<T>(model: ModelDef, errors: Record<string, T>, dialect: Dialect): Record<string, T> {
  const renamed = dialect === '4.4' ? model.netbox44?.renamed : undefined;
  if (!renamed || !Object.keys(errors).some((k) => k in renamed)) return errors;
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [renamed[k] ?? k, v]));
}

/** A stored integer as a dialect shows it (FieldDef.scaleIn): rounded to the dialect's unit. */
export function inUnitOf(f: FieldDef, v: unknown, dialect: Dialect): unknown {
  const n = f.scaleIn?.[dialect];
  return n && typeof v === 'number' ? Math.round(v / n) : v;
}

const scaledDefs = new WeakMap<FieldDef, Map<Dialect, FieldDef>>();

/**
 * The field as a dialect writes it: its bounds in the dialect's unit (a stored maximum of
 * 2,147,483,647 MB is 2,147,483 GB), so a value parsed against it fits once scaled (writtenIn).
 */
export function fieldAsWrittenIn(f: FieldDef, dialect: Dialect): FieldDef {
  const n = f.scaleIn?.[dialect];
  if (!n) return f;
  let byDialect = scaledDefs.get(f);
  if (!byDialect) scaledDefs.set(f, (byDialect = new Map()));
  let out = byDialect.get(dialect);
  if (!out) {
    out = {
      ...f,
      ...(f.max != null ? { max: Math.floor(f.max / n) } : {}),
      ...(f.min != null ? { min: Math.ceil(f.min / n) } : {}),
    };
    byDialect.set(dialect, out);
  }
  return out;
}

/** A value written in a dialect's unit, as stored. */
export function writtenIn(f: FieldDef, v: unknown, dialect: Dialect): unknown {
  const n = f.scaleIn?.[dialect];
  return n && typeof v === 'number' ? v * n : v;
}

/** Whether a model is served in a dialect (ModelDef.dialect). */
export function servedIn(model: ModelDef, dialect: Dialect): boolean {
  return !model.dialect || model.dialect === dialect;
}

/** Whether a dialect shows a model as a tree (its `_depth`): every tree, but one only NetBox 4 made in 4.4 only. */
export function isTreeIn(model: ModelDef, dialect: Dialect): boolean {
  return !!model.treeParent && (!model.treeIn || model.treeIn === dialect);
}
