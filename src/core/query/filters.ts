/**
 * Query parameters -> SQL conditions for a model's list. Filters are derived from field kinds
 * (lookups.ts), plus the ones every model has (id, created, last_updated, q, tag, cf_*,
 * *_by_request) and those a model declares. Unknown names are ignored (reference 8.3); a value a
 * known filter cannot take is a 400 keyed by the parameter as given (never ignored, also where
 * NetBox ignores it or matches nothing - booleans, networks, content types:
 * docs/api-differences.md, "Strict input").
 */
import type { RequestContext } from '../context.js';
import { ApiError, Errors } from '../errors.js';
import type { CustomFilter, ModelDef } from '../model/types.js';
import { customFieldCondition } from './custom-field-filter.js';
import {
  BY_REQUEST_ACTIONS,
  byRequestCondition,
  col,
  contentTypeValues,
  fkIdCondition,
  fkKeyCondition,
  lookupCondition,
  macValues,
  networkCondition,
  searchCondition,
  stringsCondition,
  tagCondition,
} from './filter-conditions.js';
import { BOOLEAN_VALUED, type Cond } from './lookups.js';
import { fkNameFilterDeclared } from './undeclared-fk-filters.js';
import { ancestorFilter, exactOrNot, type ResolvedFilter, tableFilter } from './column-filters.js';
import { otherNames } from '../model/dialect.js';

export type Params = Map<string, string[]>;

/** parameters with a meaning of their own, never filters (`filter`, `filter_id`: saved-filters.ts) */
export const RESERVED_PARAMS = new Set([
  'limit',
  'offset',
  'ordering',
  'brief',
  'exclude',
  'format',
  'export',
  'fields',
  'omit',
  'filter',
  'filter_id',
]);

/** every lookup suffix a filter name may carry (`name__ic`) */
export const ALL_SUFFIXES = new Set([
  'n',
  'ic',
  'nic',
  'isw',
  'nisw',
  'iew',
  'niew',
  'ie',
  'nie',
  'empty',
  'lt',
  'lte',
  'gt',
  'gte',
]);

function splitLookup(name: string): [string, string] {
  const i = name.lastIndexOf('__');
  if (i > 0 && ALL_SUFFIXES.has(name.slice(i + 2))) return [name.slice(0, i), name.slice(i + 2)];
  return [name, 'exact'];
}

/** Builds the AND-ed conditions of a list request. */
export async function buildFilters(rc: RequestContext, model: ModelDef, params: Params): Promise<Cond[]> {
  const conds: Cond[] = [];
  for (const [name, raw] of params) {
    if (RESERVED_PARAMS.has(name) || raw.length === 0) continue;
    if (raw.some((v) => v.includes('\u0000'))) throw Errors.invalidFilter(name, 'Null characters are not allowed.');
    const c = await filterCondition(rc, model, name, raw);
    if (c) conds.push(c);
  }
  return conds;
}

async function filterCondition(rc: RequestContext, model: ModelDef, name: string, raw: string[]): Promise<Cond | null> {
  const [base, lookup] = splitLookup(name);
  const resolved = resolveFilter(model, name);
  // NetBox 4's name of a filter: 4.4's meaning in a 4.4 request (whatever lookups it takes), and
  // in a 3.4 one where 3.4 has no filter of that name (Netbox44.filters)
  const own44 = model.netbox44?.filters?.[base];
  if (own44 && (rc.dialect === '4.4' || !resolved)) {
    const known = lookup === 'exact' || own44.lookups?.includes(lookup);
    return known ? customFilter(model, own44, name, lookup).build(rc, raw) : null;
  }
  if (resolved) return resolved.build(rc, raw);
  // custom fields are rows, not declarations: resolved per request
  if (base.startsWith('cf_') && model.customFields) {
    const cfs = await rc.app.customFields(rc, model.name);
    const cf = cfs.find((c) => c.name === base.slice(3));
    return cf ? customFieldCondition(name, cf, lookup, raw) : null;
  }
  return null;
}

/**
 * What a query parameter means for a model, or null when the model does not filter on it (the
 * parameter is then ignored, reference 8.3). One answer serves the list query and the OpenAPI
 * document, so the two cannot disagree. Custom fields (`cf_*`) are resolved per request.
 */
export function resolveFilter(model: ModelDef, name: string): ResolvedFilter | null {
  let cache = resolved.get(model);
  if (!cache) resolved.set(model, (cache = new Map()));
  let hit = cache.get(name);
  if (hit === undefined) {
    hit = resolveUncached(model, name);
    // names are client input: remember only the ones that mean something, and a bounded number
    if (hit || cache.size < 4096) cache.set(name, hit);
  }
  return hit;
}

const resolved = new WeakMap<ModelDef, Map<string, ResolvedFilter | null>>();

export function customFilter(model: ModelDef, filter: CustomFilter, name: string, lookup: string): ResolvedFilter {
  return {
    type: BOOLEAN_VALUED.has(lookup) ? 'boolean' : (filter.type ?? 'string'),
    multi: !['lt', 'lte', 'gt', 'gte', 'empty'].includes(lookup),
    build: async (rc, raw) => {
      try {
        return await filter.build(raw, lookup, { rc, model, alias: 't', param: name });
      } catch (err) {
        throw underName(err, name);
      }
    },
  };
}

/**
 * A declared filter reports a bad value under whatever name it knows (`tenant_group` for a path);
 * the client sent `tenant_group__n`, and django-filter names the parameter as sent.
 */
function underName(err: unknown, name: string): unknown {
  if (!(err instanceof ApiError) || err.code !== Errors.invalidFilter.code) return err;
  const [key, messages] = Object.entries(err.body as Record<string, string[]>)[0] ?? [];
  return key === name || !messages ? err : Errors.invalidFilter(name, messages[0] ?? 'Invalid value.');
}

function resolveUncached(model: ModelDef, name: string): ResolvedFilter | null {
  const own = model.filters[name];
  if (own) return customFilter(model, own, name, 'exact');
  const [base, lookup] = splitLookup(name);
  const ownBase = model.filters[base];
  if (ownBase) return ownBase.lookups?.includes(lookup) ? customFilter(model, ownBase, name, lookup) : null;
  // a field's name in another dialect filters as the field (4.4's `form_factor` is 3.4's `type`)
  const key = otherNames(model).get(base.endsWith('_id') ? base.slice(0, -3) : base);
  if (key) {
    const as = resolveUncached(model, (base.endsWith('_id') ? `${key}_id` : key) + name.slice(base.length));
    // a bad value is reported under the name the client sent
    return (
      as && {
        ...as,
        build: (rc, raw) => as.build(rc, raw).catch((err: unknown) => Promise.reject(underName(err, name))),
      }
    );
  }
  if (base === 'id') return tableFilter('integer', 'id', lookup, name);
  if ((base === 'ancestor' || base === 'ancestor_id') && model.treeParent)
    return ancestorFilter(model, base, name, lookup);
  if (model.timestamps && (base === 'created' || base === 'last_updated'))
    return tableFilter('datetime', base, lookup, name);
  // a model with nothing to search has no `q` (NetBox 3.4: CableTerminationFilterSet defines none),
  // so it is ignored as any unknown parameter and left out of the OpenAPI document
  if (base === 'q')
    return lookup === 'exact' && model.search.length
      ? { type: 'string', multi: false, build: async (_rc, raw) => searchCondition(model, raw) }
      : null;
  // a model with its own `tag` field (NetBox 4.3's tagged objects) filters on that field below
  if (base === 'tag' && !model.fields.tag) {
    return model.tags && exactOrNot(lookup)
      ? { type: 'string', multi: true, build: (rc, raw) => tagCondition(rc, model, name, lookup, raw) }
      : null;
  }
  if (base in BY_REQUEST_ACTIONS) {
    return model.changelog && lookup === 'exact'
      ? { type: 'string', multi: true, build: async (_rc, raw) => byRequestCondition(model, base, raw) }
      : null;
  }
  if (base.endsWith('_id')) {
    const key = base.slice(0, -3);
    const f = model.fields[key];
    if (f?.kind === 'fk' && !f.noFilter) {
      if (!exactOrNot(lookup)) return null;
      return {
        type: 'integer',
        multi: true,
        build: (rc, raw) => fkIdCondition(rc, name, key, f, lookup, raw),
        ...(lookup === 'exact' ? { ownerColumn: base } : {}),
      };
    }
  }
  const f = model.fields[base];
  // a value no column stores (an event rule's event_types) filters only through a declared filter
  if (!f || f.noFilter || f.writeOnly || f.notStored) return null;
  switch (f.kind) {
    case 'fk':
      // a name NetBox does not declare is ignored, not read as an id (undeclared-fk-filters.ts)
      return exactOrNot(lookup) && fkNameFilterDeclared(model, base)
        ? { type: 'string', multi: true, build: (rc, raw) => fkKeyCondition(rc, name, base, f, lookup, raw) }
        : null;
    case 'strings':
      return exactOrNot(lookup)
        ? { type: 'string', multi: true, build: async (_rc, raw) => stringsCondition(base, lookup, raw) }
        : null;
    case 'ipaddress':
    case 'ipprefix':
      return exactOrNot(lookup)
        ? {
            type: 'string',
            multi: true,
            build: async (_rc, raw) => networkCondition(name, base, f.kind as 'ipaddress', lookup, raw),
          }
        : null;
    case 'mac': {
      const t = tableFilter('string', base, lookup, name, f);
      return (
        t && {
          ...t,
          build: async (_rc, raw) =>
            lookupCondition(name, 'string', col(base), lookup, macValues(name, lookup, raw), f),
        }
      );
    }
    case 'contenttype': {
      const t = tableFilter('choiceless', base, lookup, name, f);
      return (
        t && {
          ...t,
          build: async (rc, raw) =>
            lookupCondition(name, 'choiceless', col(base), lookup, contentTypeValues(rc, name, f, raw), f),
        }
      );
    }
    case 'm2m':
    case 'json':
    case 'password':
    case 'computed':
    case 'generic':
      return null;
    default:
      return tableFilter(f.kind, base, lookup, name, f);
  }
}
