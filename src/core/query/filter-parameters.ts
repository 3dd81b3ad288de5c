/**
 * The filter parameters a model's list documents, per API dialect: the OpenAPI document, GraphQL's
 * list arguments and the browsable API's filter list all read them, and each name is one
 * resolveFilter (filters.ts) accepts, so what is documented is what the query does.
 */
import type { Dialect } from '../model/dialect.js';
import { hasIn, otherNames } from '../model/dialect.js';
import type { ModelDef } from '../model/types.js';
import { BY_REQUEST_ACTIONS } from './filter-conditions.js';
import type { ResolvedFilter } from './column-filters.js';
import { ALL_SUFFIXES, customFilter, resolveFilter } from './filters.js';

/**
 * Every parameter a model's list filters on in NetBox 3.4's terms (besides `cf_*`), with what it
 * takes: the names a client may send, each with its lookup variants, for the OpenAPI document.
 * Candidates are made generously and kept only where resolveFilter accepts them, so the list is
 * what the query does. Each dialect's document lists its own names (NetBox 4's: Netbox44, FieldDef.dialect).
 */
export function filterParameters(model: ModelDef, dialect: Dialect = '3.4'): Array<[string, ResolvedFilter]> {
  const bases = new Set<string>([
    'id',
    'created',
    'last_updated',
    'q',
    'tag',
    'ancestor',
    'ancestor_id',
    ...Object.keys(BY_REQUEST_ACTIONS),
  ]);
  const aliases = otherNames(model);
  for (const [key, f] of Object.entries(model.fields)) {
    // a dialect's filters: not those of fields only another dialect shows, nor in 3.4 a 4.4 name
    // standing for another field (an event rule's object_types), which filter all the same
    if ((f.dialect && f.dialect !== dialect) || (dialect === '3.4' && aliases.has(key))) continue;
    bases.add(key).add(`${key}_id`);
  }
  // 4.4's names of renamed fields filter as the fields (both are taken; each document names its own)
  if (dialect === '4.4') for (const name of aliases.keys()) bases.add(name).add(`${name}_id`);
  for (const key of Object.keys(model.filters)) bases.add(key);
  const out: Array<[string, ResolvedFilter]> = [];
  // tags a dialect does not show are not its filter either (NetBox 4's contact assignments' tags)
  if (model.tags && !hasIn(model.tags, dialect) && !model.fields.tag) bases.delete('tag');
  for (const base of bases) {
    for (const name of [base, ...[...ALL_SUFFIXES].map((s) => `${base}__${s}`)]) {
      const r = resolveFilter(model, name);
      if (r && (!r.dialect || r.dialect === dialect)) out.push([name, r]);
    }
  }
  // NetBox 4's own filters of the model (Netbox44.filters), as filterCondition takes them in 4.4
  if (dialect === '4.4')
    for (const [base, own] of Object.entries(model.netbox44?.filters ?? {})) {
      for (const lookup of ['exact', ...(own.lookups ?? [])]) {
        const name = lookup === 'exact' ? base : `${base}__${lookup}`;
        if (!out.some(([n]) => n === name)) out.push([name, customFilter(model, own, name, lookup)]);
      }
    }
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
