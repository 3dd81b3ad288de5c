/**
 * A list field's arguments are the REST list's filters, by the same names (resolveFilter and
 * filterParameters, core/query/filters.ts), so GraphQL and REST cannot disagree: NetBox 3.4's form
 * (`site_list(status: "active", name__ic: "ams")`) and NetBox 4's (`filters: {status: "active",
 * name: {i_contains: "ams"}}`, `pagination: {offset, limit}`), plus `ordering` as REST takes it.
 * Both become the same query parameters (`Params`) the REST list builds its SQL from.
 */
import {
  GraphQLError,
  type GraphQLFieldConfigArgumentMap,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
} from 'graphql';
import { ApiError, Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { filterParameters } from '../query/filter-parameters.js';
import { type Params, resolveFilter } from '../query/filters.js';
import { filterTypeName } from './names.js';
import { FilterInputScalar, FilterValueScalar } from './scalars.js';

/** NetBox 4.3 lookup names (strawberry-django) -> the REST suffix; REST's own suffixes are taken as they are */
const LOOKUP_SUFFIX: Record<string, string> = {
  exact: '',
  in_list: '',
  i_exact: 'ie',
  i_contains: 'ic',
  i_starts_with: 'isw',
  i_ends_with: 'iew',
  gt: 'gt',
  gte: 'gte',
  lt: 'lt',
  lte: 'lte',
  n: 'n',
  ic: 'ic',
  nic: 'nic',
  isw: 'isw',
  nisw: 'nisw',
  iew: 'iew',
  niew: 'niew',
  ie: 'ie',
  nie: 'nie',
  empty: 'empty',
};

const NAME_RE = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

const PaginationInput = new GraphQLInputObjectType({
  name: 'OffsetPaginationInput',
  description: 'A page of a list: skip `offset` objects, return at most `limit` (never more than MAX_PAGE_SIZE).',
  fields: { offset: { type: GraphQLInt }, limit: { type: GraphQLInt } },
});

const filterTypes = new WeakMap<ModelDef, GraphQLInputObjectType>();

function filterInputType(model: ModelDef): GraphQLInputObjectType {
  let t = filterTypes.get(model);
  if (!t) {
    const fields = Object.fromEntries(
      filterParameters(model)
        .filter(([name]) => NAME_RE.test(name))
        .map(([name]) => [name, { type: FilterInputScalar }]),
    );
    t = new GraphQLInputObjectType({ name: filterTypeName(model), fields });
    filterTypes.set(model, t);
  }
  return t;
}

const argumentMaps = new WeakMap<ModelDef, GraphQLFieldConfigArgumentMap>();

/** The arguments of a model's list fields (top-level and nested alike), made once per model. */
export function listArguments(model: ModelDef): GraphQLFieldConfigArgumentMap {
  const made = argumentMaps.get(model);
  if (made) return made;
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const [name, filter] of filterParameters(model)) {
    if (!NAME_RE.test(name)) continue;
    args[name] = { type: filter.multi ? new GraphQLList(new GraphQLNonNull(FilterValueScalar)) : FilterValueScalar };
  }
  args.filters = {
    type: filterInputType(model),
    description:
      'NetBox 4 style: the same filters as an object; a value may be an object of lookups ({i_contains: "x"}).',
  };
  args.pagination = { type: PaginationInput };
  args.ordering = {
    type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
    description: 'As REST `ordering`: field names, `-` for descending.',
  };
  argumentMaps.set(model, args);
  return args;
}

export function badInput(message: string, argument: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argument } });
}

function strings(value: unknown, argument: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw badInput(`Invalid value for argument "${argument}": expected a string, number or boolean.`, argument);
  });
}

function add(params: Params, name: string, values: string[]): void {
  params.set(name, [...(params.get(name) ?? []), ...values]);
}

/** The `filters: {...}` object as query parameters; lookup objects name REST suffixes. */
function addFilterObject(model: ModelDef, params: Params, filters: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(filters)) {
    if (value === null || value === undefined) continue;
    const argument = `filters.${key}`;
    if (typeof value !== 'object' || Array.isArray(value)) {
      add(params, key, strings(value, argument));
      continue;
    }
    for (const [lookup, v] of Object.entries(value as Record<string, unknown>)) {
      const suffix = LOOKUP_SUFFIX[lookup];
      const name = suffix === undefined ? null : suffix ? `${key}__${suffix}` : key;
      if (!name || !resolveFilter(model, name))
        throw badInput(`Unknown lookup "${lookup}" for filter "${key}".`, `${argument}.${lookup}`);
      if (v !== null && v !== undefined) add(params, name, strings(v, `${argument}.${lookup}`));
    }
  }
}

export interface ListArgs {
  params: Params;
  offset: number;
  /** null: as many as MAX_PAGE_SIZE allows */
  limit: number | null;
}

/** GraphQL arguments -> the REST list's query parameters and the page. */
export function readListArgs(model: ModelDef, args: Record<string, unknown>): ListArgs {
  const params: Params = new Map();
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined || name === 'filters' || name === 'pagination') continue;
    add(params, name, strings(value, name));
  }
  if (args.filters) addFilterObject(model, params, args.filters as Record<string, unknown>);
  const page = (args.pagination ?? {}) as { offset?: number | null; limit?: number | null };
  for (const key of ['offset', 'limit'] as const) {
    if (page[key] != null && page[key]! < 0)
      throw badInput(`pagination.${key} must be zero or more.`, `pagination.${key}`);
  }
  return { params, offset: page.offset ?? 0, limit: page.limit ?? null };
}

/** A bad filter value or ordering (a 400 in REST) as a GraphQL error naming the argument. */
export function asGraphqlError(err: unknown): unknown {
  if (
    !(err instanceof ApiError) ||
    (err.code !== Errors.invalidFilter.code && err.code !== Errors.invalidParameter.code)
  )
    return err;
  const [argument, messages] = Object.entries(err.body as Record<string, string[]>)[0] ?? ['?', []];
  return badInput(`Invalid value for argument "${argument}": ${messages?.[0] ?? 'invalid value.'}`, argument);
}
