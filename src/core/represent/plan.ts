/**
 * What a representation of a model shows beyond the rows' own columns, decided once per mode,
 * dialect and field selection: the renderer loads it, and the page query can prefetch it
 * (prefetch.ts).
 */
import { type Dialect, hasIn, isTreeIn, shownIn, wireName } from '../model/dialect.js';
import type { ModelDef } from '../model/types.js';

export type Mode = 'full' | 'brief' | 'nested';

export interface RenderPlan {
  mode: Mode;
  dialect: Dialect;
  /** field keys shown, in order */
  keys: string[];
  /** the name each of `keys` has on the wire in the plan's dialect */
  names: string[];
  fkKeys: string[];
  m2mKeys: string[];
  genericKeys: string[];
  countKeys: string[];
  withTags: boolean;
  withDepth: boolean;
  withCustomFields: boolean;
  /** NetBox 4.1+: the object's page in the web interface, beside its API url (full form) */
  withDisplayUrl: boolean;
  /** `?fields=` (NetBox 4.0): only these wire names are shown, the fixed ones (id, url...) included */
  only: ReadonlySet<string> | null;
}

export interface PlanOptions {
  /** `?exclude=`: fields to leave out (only excludable ones are) */
  exclude?: ReadonlySet<string>;
  dialect?: Dialect;
  /** `?fields=`: wire names to show and nothing else */
  fields?: ReadonlySet<string>;
  /**
   * the full form shows the fields of every dialect under their keys (3.4's names): the web pages'
   * reads (RequestContext.everyField), which show and edit what NetBox 4 added beside 3.4's fields
   */
  every?: boolean;
}

/** NetBox 4's brief form where a model does not declare one: 3.4's, and its description (#15238) */
function brief44(model: ModelDef): string[] {
  if (model.netbox44?.brief) return model.netbox44.brief;
  return 'description' in model.fields && !model.brief.includes('description')
    ? [...model.brief, 'description']
    : model.brief;
}

/** Field keys shown in a mode, in declaration order. */
function fieldsFor(model: ModelDef, mode: Mode, dialect: Dialect, every: boolean): string[] {
  if (mode === 'full') {
    return Object.entries(model.fields)
      .filter(([k, f]) => !f.writeOnly && (every || shownIn(model, k, f, dialect)))
      .map(([k]) => k);
  }
  if (dialect === '4.4') {
    const brief = brief44(model);
    // a nested object carries no counts (NetBox 4 reads them from annotations of the list's own rows)
    return mode === 'brief' ? brief : brief.filter((k) => !(k in model.counts));
  }
  return mode === 'brief' ? model.brief : (model.nested as string[]);
}

const plans = new WeakMap<ModelDef, Map<string, RenderPlan>>();

export function planRender(model: ModelDef, mode: Mode, opts: PlanOptions = {}): RenderPlan {
  const dialect = opts.dialect ?? '3.4';
  let byKey = plans.get(model);
  const every = !!opts.every && mode === 'full';
  const baseKey = `${dialect}${every ? '+every' : ''}:${mode}`;
  const whole = byKey?.get(baseKey);
  const shown = whole?.keys ?? fieldsFor(model, mode, dialect, every);
  // only excludable fields that are shown change the plan (`exclude=` names anything the client likes)
  const exclude = opts.exclude;
  const dropped = exclude?.size ? shown.filter((k) => exclude.has(k) && model.fields[k]?.excludable) : [];
  const only = opts.fields?.size ? [...opts.fields].sort() : null;
  if (whole && !dropped.length && !only) return whole;
  const cacheKey = `${baseKey}:${dropped.join(',')}:${only?.join(',') ?? ''}`;
  const hit = byKey?.get(cacheKey);
  if (hit) return hit;
  const onlySet = only ? new Set(only) : null;
  const keys = shown.filter((k) => !dropped.includes(k) && (!onlySet || onlySet.has(wireName(model, k, dialect))));
  const ofKind = (kind: string) => keys.filter((k) => model.fields[k]?.kind === kind);
  const full = mode === 'full';
  const wanted = (name: string) => !onlySet || onlySet.has(name);
  const countKeys = full ? Object.keys(model.counts) : mode === 'brief' ? keys.filter((k) => k in model.counts) : [];
  const plan: RenderPlan = {
    mode,
    dialect,
    keys,
    names: keys.map((k) => wireName(model, k, dialect)),
    fkKeys: ofKind('fk'),
    m2mKeys: ofKind('m2m'),
    genericKeys: ofKind('generic'),
    countKeys: countKeys.filter(wanted),
    withTags: full && hasIn(model.tags, dialect) && wanted('tags'),
    withDepth: isTreeIn(model, dialect) && wanted('_depth'),
    withCustomFields: full && hasIn(model.customFields, dialect) && wanted('custom_fields'),
    withDisplayUrl: full && dialect === '4.4' && wanted('display_url'),
    only: onlySet,
  };
  if (!byKey) plans.set(model, (byKey = new Map()));
  // subsets of the fields could still be many: keep the cache bounded
  if (byKey.size < 64 || !(dropped.length || only)) byKey.set(cacheKey === `${baseKey}::` ? baseKey : cacheKey, plan);
  return plan;
}
