/**
 * Bounds on a query, checked by a validation rule, so a query over them is refused before any SQL
 * runs: its depth (nested selections), its aliases (each lets a client ask for the same field
 * again, with other arguments), and its cost - the number of values it may produce, where each
 * field counts once per object it is asked of: a list counts as its `pagination.limit` objects
 * when the query gives one, else as GRAPHQL_LIST_COST objects. A `filters` argument adds its
 * keys to the cost, and its AND/OR/NOT and related objects' filters (`site: {tenant: {...}}`) may
 * nest no deeper than GRAPHQL_MAX_DEPTH, literal or sent
 * in variables (measured here, before graphql-js reads the variables). Introspection (`__schema`,
 * `__typename`) is free, so GraphiQL and code generators always work.
 */
import {
  type ASTVisitor,
  type FieldNode,
  getNamedType,
  getNullableType,
  type GraphQLCompositeType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { LOOKUP_NAMES } from './filter-objects.js';

export interface GraphqlLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  /** the objects a list without `pagination.limit` is counted as */
  listCost: number;
}

interface Tally {
  depth: number;
  aliases: number;
  cost: number;
  /** selections visited: fragments spread many times cannot make the walk itself explode */
  visits: number;
  /** the deepest AND/OR/NOT nesting of a `filters` argument */
  filterDepth: number;
}

const LOGIC = new Set(['AND', 'OR', 'NOT']);

/** an object of lookups (`{i_contains: "x"}`) is a value, not a level; any other object is a related object's filter */
function isNested(v: unknown, fromDocument: boolean, variables: Record<string, unknown>): boolean {
  let keys: string[] = [];
  if (fromDocument) {
    const node = v as ValueNode;
    if (node.kind === Kind.VARIABLE) return isNested(variables[node.name.value], false, variables);
    if (node.kind === Kind.OBJECT) keys = node.fields.map((f) => f.name.value);
  } else if (v && typeof v === 'object' && !Array.isArray(v)) keys = Object.keys(v);
  return keys.some((k) => !LOOKUP_NAMES.has(k));
}

/**
 * The keys of a `filters` value and its AND/OR/NOT nesting, from the literal or the variables it
 * names; the walk goes no further than `cap` levels down, so a hostile nesting costs nothing.
 */
function measureFilters(
  value: ValueNode,
  variables: Record<string, unknown>,
  cap: number,
): { depth: number; keys: number } {
  const out = { depth: 0, keys: 0 };
  const walk = (v: unknown, fromDocument: boolean, level: number) => {
    out.depth = Math.max(out.depth, level);
    if (level > cap) return;
    let entries: Array<[string, unknown, boolean]> = [];
    if (fromDocument) {
      const node = v as ValueNode;
      if (node.kind === Kind.VARIABLE) return walk(variables[node.name.value], false, level);
      if (node.kind === Kind.OBJECT) entries = node.fields.map((f) => [f.name.value, f.value, true]);
    } else if (v && typeof v === 'object' && !Array.isArray(v)) {
      entries = Object.entries(v).map(([k, inner]) => [k, inner, false]);
    }
    for (const [key, inner, literal] of entries) {
      out.keys++;
      if (LOGIC.has(key) || isNested(inner, literal, variables)) walk(inner, literal, level + 1);
    }
  };
  walk(value, true, 0);
  return out;
}

/** `pagination: {limit: N}` as a literal or through variables; null when not given. */
function requestedLimit(field: FieldNode, variables: Record<string, unknown>): number | null {
  const arg = field.arguments?.find((a) => a.name.value === 'pagination');
  if (!arg) return null;
  let value: unknown;
  if (arg.value.kind === Kind.VARIABLE) value = (variables[arg.value.name.value] as { limit?: unknown } | null)?.limit;
  else if (arg.value.kind === Kind.OBJECT) {
    const limit = arg.value.fields.find((f) => f.name.value === 'limit')?.value;
    if (limit?.kind === Kind.INT) value = Number(limit.value);
    else if (limit?.kind === Kind.VARIABLE) value = variables[limit.name.value];
  }
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function limitsRule(limits: GraphqlLimits, variables: Record<string, unknown>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const over = (t: Tally) =>
      t.depth > limits.maxDepth ||
      t.filterDepth > limits.maxDepth ||
      t.aliases > limits.maxAliases ||
      t.cost > limits.maxCost ||
      t.visits > 100_000;
    const walk = (
      set: SelectionSetNode,
      parent: GraphQLCompositeType | null,
      depth: number,
      times: number,
      t: Tally,
      spread: Set<string>,
    ) => {
      for (const sel of set.selections) {
        if (over(t)) return;
        t.visits++;
        if (sel.kind === Kind.FIELD) {
          if (sel.name.value.startsWith('__')) continue;
          if (sel.alias) t.aliases++;
          t.cost += times;
          const filters = sel.arguments?.find((a) => a.name.value === 'filters');
          if (filters) {
            const size = measureFilters(filters.value, variables, limits.maxDepth);
            t.filterDepth = Math.max(t.filterDepth, size.depth);
            t.cost += size.keys;
          }
          t.depth = Math.max(t.depth, depth + 1);
          const def =
            parent && (isObjectType(parent) || isInterfaceType(parent))
              ? parent.getFields()[sel.name.value]
              : undefined;
          if (!sel.selectionSet || !def) continue;
          const named = getNamedType(def.type);
          const each = isListType(getNullableType(def.type))
            ? Math.max(1, requestedLimit(sel, variables) ?? limits.listCost)
            : 1;
          walk(sel.selectionSet, isCompositeType(named) ? named : null, depth + 1, times * each, t, spread);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          const on = sel.typeCondition ? context.getSchema().getType(sel.typeCondition.name.value) : parent;
          walk(sel.selectionSet, on && isCompositeType(on) ? on : null, depth, times, t, spread);
        } else {
          const name = sel.name.value;
          const fragment = context.getFragment(name);
          if (!fragment || spread.has(name)) continue; // unknown or cyclic: the standard rules report it
          const on = context.getSchema().getType(fragment.typeCondition.name.value);
          walk(
            fragment.selectionSet,
            on && isCompositeType(on) ? on : null,
            depth,
            times,
            t,
            new Set([...spread, name]),
          );
        }
      }
    };
    return {
      OperationDefinition(op) {
        const t: Tally = { depth: 0, aliases: 0, cost: 0, visits: 0, filterDepth: 0 };
        const root = context.getSchema().getRootType(op.operation);
        walk(op.selectionSet, root ?? null, 0, 1, t, new Set());
        const report = (message: string, code: string) =>
          context.reportError(new GraphQLError(message, { nodes: op, extensions: { code } }));
        if (t.depth > limits.maxDepth)
          report(`The query is nested deeper than ${limits.maxDepth} levels (GRAPHQL_MAX_DEPTH).`, 'QUERY_TOO_DEEP');
        if (t.filterDepth > limits.maxDepth)
          report(
            `A filter nests AND, OR and NOT deeper than ${limits.maxDepth} levels (GRAPHQL_MAX_DEPTH).`,
            'QUERY_TOO_DEEP',
          );
        if (t.aliases > limits.maxAliases)
          report(`The query uses more than ${limits.maxAliases} aliases (GRAPHQL_MAX_ALIASES).`, 'TOO_MANY_ALIASES');
        if (t.cost > limits.maxCost || t.visits > 100_000) {
          report(
            `The query may cost more than ${limits.maxCost} (GRAPHQL_MAX_COST): each field counts once per object it is asked of, a list as its pagination.limit or ${limits.listCost} objects.`,
            'QUERY_TOO_COSTLY',
          );
        }
      },
    };
  };
}
