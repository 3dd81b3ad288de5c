/**
 * The scalars the generated schema needs beyond GraphQL's own. `FilterValue` is what a list's
 * filter arguments take: NetBox 3.4 types them as strings (lists where repeatable) but coerces
 * scalars, so `site_id: 1`, `enabled: true` and `status: "active"` all arrive as the string the
 * REST query parameter would carry. `FilterInput` is a field of the NetBox 4 style `filters:`
 * object: a value, a list, or an object of lookups (`{i_contains: "x"}`).
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literalValue(node: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

/** Any JSON value, as REST renders it (custom fields, computed objects). */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literalValue,
});

/** Integers past 32 bits (4-byte ASNs), as NetBox 3.4's BigInt. */
export const BigIntScalar = new GraphQLScalarType({
  name: 'BigInt',
  description: 'An integer that may exceed 32 bits.',
  serialize: (v) => (v === null || v === undefined ? null : Number(v)),
  parseValue: (v) => Number(v),
  parseLiteral: (node) => (node.kind === Kind.INT ? Number(node.value) : undefined),
});

function filterString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new GraphQLError(`A filter value must be a string, number or boolean, got ${JSON.stringify(v)}.`);
}

export const FilterValueScalar = new GraphQLScalarType({
  name: 'FilterValue',
  description: 'A filter value: a string, number or boolean, read as the REST query parameter would be.',
  serialize: (v) => v,
  parseValue: filterString,
  parseLiteral: (node, variables) => filterString(literalValue(node, variables)),
});

export const FilterInputScalar = new GraphQLScalarType({
  name: 'FilterInput',
  description: 'A filter value, a list of values (any matches), or an object of lookups such as {i_contains: "x"}.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literalValue,
});
