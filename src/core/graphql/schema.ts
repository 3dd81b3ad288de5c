/**
 * The read-only schema, generated from the registry: for every model `<name>(id: ID!)` and
 * `<name>_list(...)` on Query (NetBox 3.4's names), and no Mutation type at all, so nothing can be
 * written through GraphQL. Built once per app (the registry is frozen before).
 */
import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { Registry } from '../model/registry.js';
import { badInput, listArguments, readListArgs } from './arguments.js';
import type { GraphqlContext } from './batch.js';
import { loadByIds, loadList } from './loads.js';
import { snakeName } from './names.js';
import { buildObjectTypes } from './object-types.js';

export function buildGraphqlSchema(registry: Registry): GraphQLSchema {
  const types = buildObjectTypes(registry);
  const fields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const model of registry.all()) {
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
      args: listArguments(model),
      resolve: (_root, args: Record<string, unknown>, g) => loadList(g, model, readListArgs(model, args)),
    };
  }
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields }), types: [...types.values()] });
}
