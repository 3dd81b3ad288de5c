/**
 * A list field's arguments are the REST list's filters, by the same names (resolveFilter and
 * filterParameters, core/query/filters.ts), so GraphQL and REST cannot disagree. Per dialect:
 * - 3.4: NetBox 3.4's form (`site_list(status: "active", name__ic: "ams")`) and NetBox 4's
 *   (`filters: {status: "active", name: {i_contains: "ams"}}`), `pagination: {offset, limit}`;
 * - 4.4: NetBox 4.4's form only: `filters` (with AND/OR/NOT, filter-objects.ts) and `pagination`.
 * Both take `ordering` as REST does. Everything becomes the query parameters (`Params`) the REST
 * list builds its SQL from, in a tree where AND/OR/NOT nest (FilterNode).
 */
import {
  type GraphQLFieldConfigArgumentMap,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
} from 'graphql';
import type { Dialect } from '../model/dialect.js';
import type { Registry } from '../model/registry.js';
import type { ModelDef } from '../model/types.js';
import { filterParameters } from '../query/filter-parameters.js';
import { badInput } from './errors.js';
import { addParam, type FilterNode, filterInputType, readFilterObject, strings } from './filter-objects.js';
import { FilterValueScalar } from './scalars.js';

const NAME_RE = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

const PaginationInput = new GraphQLInputObjectType({
  name: 'OffsetPaginationInput',
  description: 'A page of a list: skip `offset` objects, return at most `limit` (never more than MAX_PAGE_SIZE).',
  fields: { offset: { type: GraphQLInt }, limit: { type: GraphQLInt } },
});

const argumentMaps: Record<Dialect, WeakMap<ModelDef, GraphQLFieldConfigArgumentMap>> = {
  '3.4': new WeakMap(),
  '4.4': new WeakMap(),
};

/** The arguments of a model's list fields in a dialect (top-level and nested alike), made once per model. */
export function listArguments(registry: Registry, model: ModelDef, dialect: Dialect): GraphQLFieldConfigArgumentMap {
  const made = argumentMaps[dialect].get(model);
  if (made) return made;
  const args: GraphQLFieldConfigArgumentMap = {};
  if (dialect === '3.4') {
    for (const [name, filter] of filterParameters(model)) {
      if (!NAME_RE.test(name)) continue;
      args[name] = { type: filter.multi ? new GraphQLList(new GraphQLNonNull(FilterValueScalar)) : FilterValueScalar };
    }
  }
  args.filters = {
    type: filterInputType(registry, model, dialect),
    description:
      dialect === '3.4'
        ? 'NetBox 4 style: the same filters as an object; a value may be an object of lookups ({i_contains: "x"}).'
        : 'The REST filters as an object: a value, a list (any matches) or an object of lookups ({i_contains: "x"}); AND, OR and NOT combine objects of the same type.',
  };
  args.pagination = { type: PaginationInput };
  args.ordering = {
    type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
    description: 'As REST `ordering`: field names, `-` for descending.',
  };
  argumentMaps[dialect].set(model, args);
  return args;
}

/** A list's filters (the root filter node, its parameters holding `ordering` too) and its page. */
export interface ListArgs extends FilterNode {
  offset: number;
  /** null: as many as MAX_PAGE_SIZE allows */
  limit: number | null;
}

/** GraphQL arguments -> the REST list's query parameters and the page. */
export function readListArgs(
  registry: Registry,
  model: ModelDef,
  args: Record<string, unknown>,
  dialect: Dialect,
): ListArgs {
  const root: FilterNode = { params: new Map() };
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined || name === 'filters' || name === 'pagination') continue;
    addParam(root.params, name, strings(value, name));
  }
  if (args.filters)
    readFilterObject(registry, model, args.filters as Record<string, unknown>, dialect, 'filters', root);
  const page = (args.pagination ?? {}) as { offset?: number | null; limit?: number | null };
  for (const key of ['offset', 'limit'] as const) {
    if (page[key] != null && page[key]! < 0)
      throw badInput(`pagination.${key} must be zero or more.`, `pagination.${key}`);
  }
  return { ...root, offset: page.offset ?? 0, limit: page.limit ?? null };
}
