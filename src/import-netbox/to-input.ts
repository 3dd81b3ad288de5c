/**
 * A source object as a write of this service takes it: each field the model declares writable, in
 * the form the write path parses (a related object by its id, a choice by its value, tags by id),
 * under the dialect's names (the write path maps 4.4's). Read-only values (counts, depth, a
 * cable's end) are left out: the write derives them again.
 */
import { withFieldNames } from '../core/model/dialect.js';
import type { ModelDef } from '../core/model/types.js';
import type { Rep } from './source.js';

export interface InputRules {
  /** types this copy writes: a reference to any other (a synced data file) is left out */
  copied: Set<string>;
  /** custom fields (by name) whose values are objects, per model: written in the second pass */
  objectCustomFields: Map<string, Set<string>>;
  /** the source has MAC address objects (NetBox 4.2+): an interface's `mac_address` comes with them */
  macObjects: boolean;
  /** fields left out per model: what another copied type brings itself */
  leaveOut: Map<string, ReadonlySet<string>>;
}

const idOf = (v: unknown): unknown => (v && typeof v === 'object' && 'id' in v ? (v as Rep).id : v);

/** a choice as `{value, label}` (NetBox's rendering) or its value */
export const choiceValue = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as Rep).value : v;

/** custom field values with object values as ids (NetBox renders them nested) */
function customFieldInput(cf: Rep, leaveOut: Set<string> | undefined, only: Set<string> | undefined): Rep {
  const out: Rep = {};
  for (const [name, v] of Object.entries(cf)) {
    const isObject = leaveOut?.has(name) ?? false;
    if (only ? !only.has(name) : isObject) continue;
    out[name] = Array.isArray(v) ? v.map(idOf) : idOf(v);
  }
  return out;
}

/**
 * A cable end as written (`[{object_type, object_id}]`), from its rendering, which nests the
 * object too
 */
function terminations(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.map((t) =>
    t && typeof t === 'object' && 'object_type' in t ? { object_type: t.object_type, object_id: t.object_id } : t,
  );
}

/**
 * The input of the first pass (`deferred` left out) or, with `onlyDeferred`, of the second (the
 * id and the deferred references, with the object-valued custom fields).
 */
export function toInput(
  model: ModelDef,
  rep: Rep,
  rules: InputRules,
  deferred: Set<string>,
  onlyDeferred = false,
): Rep {
  const src = withFieldNames(model, rep);
  const out: Rep = { id: rep.id };
  for (const [key, f] of Object.entries(model.fields)) {
    if (!(key in src)) continue;
    if (f.kind === 'computed' || f.kind === 'generic' || f.kind === 'password') continue;
    if (f.readOnly && f.pageWrite !== 'superuser') continue;
    if (deferred.has(key) !== onlyDeferred) continue;
    if ((f.kind === 'fk' || f.kind === 'm2m') && f.to && !rules.copied.has(f.to)) continue;
    if (key === 'mac_address' && rules.macObjects && model.fields.primary_mac_address) continue;
    if (rules.leaveOut.get(model.name)?.has(key)) continue;
    const v = src[key];
    if (f.kind === 'fk') out[key] = idOf(v);
    else if (f.kind === 'm2m') out[key] = Array.isArray(v) ? v.map((m) => (f.slugField ? m : idOf(m))) : v;
    else if (f.kind === 'choice') out[key] = choiceValue(v);
    else if (f.kind === 'json' && (key === 'a_terminations' || key === 'b_terminations')) out[key] = terminations(v);
    else out[key] = v;
  }
  if (model.tags && Array.isArray(src.tags) && !onlyDeferred) out.tags = src.tags.map(idOf);
  if (model.customFields && src.custom_fields && typeof src.custom_fields === 'object') {
    const objectCfs = rules.objectCustomFields.get(model.name);
    const cf = customFieldInput(
      src.custom_fields as Rep,
      objectCfs,
      onlyDeferred ? (objectCfs ?? new Set()) : undefined,
    );
    if (!onlyDeferred || Object.keys(cf).length) out.custom_fields = cf;
  }
  return out;
}

/** whether a second-pass input sets anything (an object whose deferred references are all empty needs none) */
export function setsAnything(input: Rep): boolean {
  return Object.entries(input).some(([k, v]) => {
    if (k === 'id') return false;
    if (k === 'custom_fields')
      return Object.values(v as Rep).some((x) => x !== null && !(Array.isArray(x) && !x.length));
    return v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0);
  });
}
