/**
 * The read-only schema of an API dialect, generated from the registry: for every model the
 * dialect serves, `<name>(id: ID!)` and `<name>_list(...)` on Query (NetBox's names), and no
 * Mutation type at all, so nothing can be written through GraphQL. A request is answered by its
 * dialect's schema (http/dialect.ts chooses the dialect), built on first use and kept per registry
 * (the registry is frozen before).
 */
import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { DIALECT_RELEASE, type Dialect, servedIn } from '../model/dialect.js';
import type { Registry } from '../model/registry.js';
import { listArguments, readListArgs } from './arguments.js';
import type { GraphqlContext } from './batch.js';
import { badInput } from './errors.js';
import { loadByIds, loadList } from './loads.js';
import { snakeName } from './names.js';
import { buildObjectTypes } from './object-types.js';

export function buildGraphqlSchema(registry: Registry, dialect: Dialect = '3.4'): GraphQLSchema {
  const types = buildObjectTypes(registry, dialect);
  const fields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const model of registry.all()) {
    if (!servedIn(model, dialect)) continue;
    const type = types.get(model.name)!;
    const name = snakeName(model);
    fields[name] = {
      type,
      description: `One ${model.verboseName} by id, or null when it does not exist or may not be viewed.`,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: async (_root, args: { id: string }, g) => {
        if (!/^\d{1,18}$/.test(String(args.id)))
          throw badInput(`Invalid value for argument "id": "${args.id}" is not an integer.`, 'id');
        return (await loadByIds(g, model, [Number(args.id)])).get(Number(args.id)) ?? null;
      },
    };
    fields[`${name}_list`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
      description: `${model.verboseNamePlural} the user may view, filtered as the REST list filters them; at most MAX_PAGE_SIZE per page.`,
      args: listArguments(registry, model, dialect),
      resolve: (_root, args: Record<string, unknown>, g) =>
        loadList(g, model, readListArgs(registry, model, args, dialect)),
    };
  }
  const query = new GraphQLObjectType({
    name: 'Query',
    description: `The read-only API in NetBox ${dialect}'s dialect (as NetBox ${DIALECT_RELEASE[dialect]} answers).`,
    fields,
  });
  return new GraphQLSchema({ query, types: [...types.values()] });
}

const schemas = new WeakMap<Registry, Map<Dialect, GraphQLSchema>>();

/** A dialect's schema for a registry, built the first time a request asks for it. */
export function schemaFor(registry: Registry, dialect: Dialect): GraphQLSchema {
  let byDialect = schemas.get(registry);
  if (!byDialect) schemas.set(registry, (byDialect = new Map()));
  let schema = byDialect.get(dialect);
  if (!schema) byDialect.set(dialect, (schema = buildGraphqlSchema(registry, dialect)));
  return schema;
}
