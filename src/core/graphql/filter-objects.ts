/**
 * The `filters:` argument of a list, NetBox 4's form of the REST filters: one input object type
 * per model and dialect, read into the query parameters REST builds its SQL from.
 * - 3.4's schema: every REST filter name, lookup suffixes included (`name__ic`), each a
 *   `FilterInput` (a value, a list, or an object of lookups).
 * - 4.4's schema: the 4.4 dialect's filter names without suffixes (a lookup object says the rest:
 *   `name: {i_contains: "x"}`), and, as strawberry-django's filter types of NetBox 4.3+ have them,
 *   `AND`, `OR`, `NOT` (each an object of the same type) and `DISTINCT`. A choice filter also takes
 *   NetBox 4.4's enum names (`status: STATUS_ACTIVE`, or `{exact: STATUS_ACTIVE}` as 4.5 writes it).
 *
 * In 4.4 a foreign key's filter is the related model's own filter type (`site: {name: {exact: "x"}}`,
 * related-filters.ts).
 *
 * AND/OR/NOT combine as strawberry-django's process_filters does: the object's own keys, its `AND`
 * and `NOT` are AND-ed; `OR` is then OR-ed with all of that (`{status: PLANNED, OR: {tenant: "x"}}`
 * is "planned, or of tenant x", NetBox's own example); an empty object adds no condition.
 */
import { GraphQLBoolean, GraphQLInputObjectType } from 'graphql';
import type { Dialect } from '../model/dialect.js';
import type { Registry } from '../model/registry.js';
import type { ModelDef } from '../model/types.js';
import { filterParameters } from '../query/filter-parameters.js';
import { type Params, resolveFilter } from '../query/filters.js';
import { badInput } from './errors.js';
import { filterTypeName } from './names.js';
import { type RelatedFilter, relatedFilters } from './related-filters.js';
import { FilterInputScalar } from './scalars.js';

/** One filter object: its own keys as query parameters, and the objects its AND, OR and NOT hold. */
export interface FilterNode {
  params: Params;
  and?: FilterNode;
  or?: FilterNode;
  not?: FilterNode;
  /** 4.4: conditions on related objects: the row points at one of those the related node keeps */
  related?: Array<RelatedFilter & { node: FilterNode; path: string }>;
}

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

/** the keys of a lookup object (`range` too), as opposed to a related object's filter names */
export const LOOKUP_NAMES = new Set([...Object.keys(LOOKUP_SUFFIX), 'range']);

const LOGIC = { AND: 'and', OR: 'or', NOT: 'not' } as const;
const NAME_RE = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

const filterTypes: Record<Dialect, WeakMap<ModelDef, GraphQLInputObjectType>> = {
  '3.4': new WeakMap(),
  '4.4': new WeakMap(),
};

/** A filter name without its lookup suffix (`name__ic` -> `name`). */
const baseName = (name: string) => name.replace(/__[a-z]+$/, '');

/** The input type of a model's `filters:` argument in a dialect, made once per model. */
export function filterInputType(registry: Registry, model: ModelDef, dialect: Dialect): GraphQLInputObjectType {
  let t = filterTypes[dialect].get(model);
  if (t) return t;
  const names = filterParameters(model, dialect)
    .map(([name]) => (dialect === '4.4' ? baseName(name) : name))
    .filter((name) => NAME_RE.test(name));
  const own = Object.fromEntries(names.map((name) => [name, { type: FilterInputScalar }]));
  if (dialect === '3.4') t = new GraphQLInputObjectType({ name: filterTypeName(model), fields: own });
  else {
    const related = relatedFilters(registry, model, dialect);
    const self: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: filterTypeName(model),
      fields: () => ({
        ...own,
        ...Object.fromEntries(
          [...related].map(([name, r]) => [
            name,
            {
              type: filterInputType(registry, r.target, dialect),
              description: `The ${r.target.verboseName}'s filters.`,
            },
          ]),
        ),
        AND: { type: self, description: 'Also these conditions.' },
        OR: { type: self, description: 'Or these conditions, instead of all the others of this object.' },
        NOT: { type: self, description: 'Not these conditions.' },
        DISTINCT: {
          type: GraphQLBoolean,
          description: 'Taken for NetBox compatibility: a list never repeats an object.',
        },
      }),
    });
    t = self;
  }
  filterTypes[dialect].set(model, t);
  return t;
}

const knownNames = new WeakMap<ModelDef, Set<string>>();

/** Whether a filter name is one the dialect's filters take (4.4's own filters included). */
function isKnown(model: ModelDef, name: string, dialect: Dialect): boolean {
  if (dialect === '3.4') return !!resolveFilter(model, name);
  let names = knownNames.get(model);
  if (!names) knownNames.set(model, (names = new Set(filterParameters(model, '4.4').map(([n]) => n))));
  return names.has(name);
}

/** `ChoiceSet.as_enum`'s key of a value (NetBox utilities/string.py enum_key) */
const enumKey = (v: string | number) =>
  String(v)
    .toUpperCase()
    .replace(/[^_A-Z0-9]/g, '_');

/**
 * A choice filter's value from NetBox 4.4's enum name of it: the value's key behind a prefix that
 * varies by field (`STATUS_ACTIVE`, `TYPE_1000BASE_T`, a circuit's bare `ACTIVE`); the longest
 * match wins. Raw values pass unchanged.
 */
function fromEnumName(v: string, choices: ReadonlyArray<string | number>): string {
  if (!/^[A-Z0-9_]+$/.test(v) || choices.some((c) => String(c) === v)) return v;
  let best: string | number | undefined;
  let length = -1;
  for (const c of choices) {
    const key = enumKey(c);
    if ((v === key || v.endsWith(`_${key}`)) && key.length > length) [best, length] = [c, key.length];
  }
  return best === undefined ? v : String(best);
}

export function strings(value: unknown, argument: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw badInput(`Invalid value for argument "${argument}": expected a string, number or boolean.`, argument);
  });
}

export function addParam(params: Params, name: string, values: string[]): void {
  params.set(name, [...(params.get(name) ?? []), ...values]);
}

function addValues(model: ModelDef, params: Params, name: string, value: unknown, argument: string, dialect: Dialect) {
  let values = strings(value, argument);
  const choices = dialect === '4.4' ? resolveFilter(model, name)?.choices : undefined;
  if (choices) values = values.map((v) => fromEnumName(v, choices));
  addParam(params, name, values);
}

/**
 * A `filters: {...}` object as a filter node, added to `node` (a list's flat 3.4 arguments may
 * already be there). `path` names the object in errors (`filters.OR`).
 */
export function readFilterObject(
  registry: Registry,
  model: ModelDef,
  filters: Record<string, unknown>,
  dialect: Dialect,
  path = 'filters',
  node: FilterNode = { params: new Map() },
): FilterNode {
  for (const [key, value] of Object.entries(filters)) {
    if (value === null || value === undefined || key === 'DISTINCT') continue;
    const argument = `${path}.${key}`;
    const logic = LOGIC[key as keyof typeof LOGIC];
    if (logic && dialect === '4.4') {
      node[logic] = readFilterObject(registry, model, value as Record<string, unknown>, dialect, argument);
      continue;
    }
    const related = relatedFilters(registry, model, dialect).get(key);
    if (related && typeof value === 'object' && !Array.isArray(value)) {
      const inner = readFilterObject(registry, related.target, value as Record<string, unknown>, dialect, argument);
      (node.related ??= []).push({ ...related, node: inner, path: `${argument}.` });
      continue;
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      addValues(model, node.params, key, value, argument, dialect);
      continue;
    }
    for (const [lookup, v] of Object.entries(value as Record<string, unknown>)) {
      // NetBox 4.3's range: [from, to], both included
      if (lookup === 'range' && dialect === '4.4' && isKnown(model, `${key}__gte`, dialect)) {
        if (!Array.isArray(v) || v.length !== 2)
          throw badInput('A range is a list of two values: [from, to].', `${argument}.range`);
        addValues(model, node.params, `${key}__gte`, v[0], `${argument}.range`, dialect);
        addValues(model, node.params, `${key}__lte`, v[1], `${argument}.range`, dialect);
        continue;
      }
      const suffix = LOOKUP_SUFFIX[lookup];
      const name = suffix === undefined ? null : suffix ? `${key}__${suffix}` : key;
      if (!name || !isKnown(model, name, dialect))
        throw badInput(`Unknown lookup "${lookup}" for filter "${key}".`, `${argument}.${lookup}`);
      if (v !== null && v !== undefined) addValues(model, node.params, name, v, `${argument}.${lookup}`, dialect);
    }
  }
  return node;
}
