/**
 * What a representation of a model shows beyond the rows' own columns, decided once per mode:
 * the renderer loads it, and the page query can prefetch it (prefetch.ts).
 */
import type { ModelDef } from '../model/types.js';

export type Mode = 'full' | 'brief' | 'nested';

export interface RenderPlan {
  mode: Mode;
  /** field keys shown, in order */
  keys: string[];
  fkKeys: string[];
  m2mKeys: string[];
  genericKeys: string[];
  countKeys: string[];
  withTags: boolean;
  withDepth: boolean;
  withCustomFields: boolean;
}

/** Field keys shown in a mode, in declaration order. */
function fieldsFor(model: ModelDef, mode: Mode): string[] {
  if (mode === 'full') {
    return Object.entries(model.fields)
      .filter(([, f]) => !f.writeOnly)
      .map(([k]) => k);
  }
  return mode === 'brief' ? model.brief : (model.nested as string[]);
}

const plans = new WeakMap<ModelDef, Map<string, RenderPlan>>();

export function planRender(model: ModelDef, mode: Mode, exclude?: Set<string>): RenderPlan {
  let byKey = plans.get(model);
  const whole = byKey?.get(mode);
  const shown = whole?.keys ?? fieldsFor(model, mode);
  // only excludable fields that are shown change the plan (`exclude=` names anything the client likes)
  const dropped = exclude?.size ? shown.filter((k) => exclude.has(k) && model.fields[k]?.excludable) : [];
  if (whole && !dropped.length) return whole;
  const cacheKey = dropped.length ? `${mode}:${dropped.join(',')}` : mode;
  const hit = byKey?.get(cacheKey);
  if (hit) return hit;
  const keys = dropped.length ? shown.filter((k) => !dropped.includes(k)) : shown;
  const ofKind = (kind: string) => keys.filter((k) => model.fields[k]?.kind === kind);
  const full = mode === 'full';
  const plan: RenderPlan = {
    mode,
    keys,
    fkKeys: ofKind('fk'),
    m2mKeys: ofKind('m2m'),
    genericKeys: ofKind('generic'),
    countKeys: full ? Object.keys(model.counts) : mode === 'brief' ? keys.filter((k) => k in model.counts) : [],
    withTags: full && model.tags,
    withDepth: !!model.treeParent,
    withCustomFields: full && model.customFields,
  };
  if (!byKey) plans.set(model, (byKey = new Map()));
  // subsets of the fields could still be many: keep the cache bounded
  if (byKey.size < 64) byKey.set(cacheKey, plan);
  return plan;
}
