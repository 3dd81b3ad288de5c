/**
 * One GraphQL object type per registered model, generated from its declaration (no model-specific
 * code): its fields as the REST full form shows them, related objects as objects (loaded per
 * batch, within the user's view scope), generic relations as unions, and nested lists
 * (relations.ts). Values come from the stored row where the row says it all; what REST computes
 * (display, computed fields, custom fields, a token's key) comes from REST's own renderer, run
 * once per batch.
 *
 * Choice fields return the raw value (`"active"`), as NetBox 4 does and the filters take it;
 * NetBox 3.4 returned enum names (`"ACTIVE"`) - see README.md. One set of types per API dialect.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  type GraphQLFieldConfigMap,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString,
  GraphQLUnionType,
} from 'graphql';
import { genericTargets } from '../model/define-model.js';
import { type Dialect, hasIn, inUnitOf, isTreeIn, servedIn, shownIn, wireName } from '../model/dialect.js';
import type { Registry } from '../model/registry.js';
import type { FieldDef, ModelDef, Row, Shape } from '../model/types.js';
import { componentName } from '../openapi/shapes.js';
import { fetchCount } from '../represent/load-related.js';
import { renderScalar, renderTimestamp } from '../represent/render.js';
import { detailUrl, pageUrl } from '../urls.js';
import { listArguments, readListArgs } from './arguments.js';
import type { GraphqlContext, Node } from './batch.js';
import {
  byIdField,
  computedObjectsField,
  type Field,
  fromRendered,
  fromRow,
  genericField,
  rendered,
} from './field-resolvers.js';
import { loadChildren } from './loads.js';
import { typeName, unionName } from './names.js';
import { nestedLists } from './relations.js';
import { BigIntScalar, JsonScalar } from './scalars.js';

const INT32_MAX = 2_147_483_647;

const listOf = (t: GraphQLOutputType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)));

function scalarType(f: FieldDef): GraphQLOutputType {
  switch (f.kind) {
    case 'integer':
      // GraphQL's Int is 32 bits: a column without a declared bound within it may hold more
      return f.max !== undefined && f.max <= INT32_MAX ? GraphQLInt : BigIntScalar;
    case 'decimal':
      return GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'json':
      return JsonScalar;
    case 'strings':
      return new GraphQLList(GraphQLString);
    case 'integers':
      return new GraphQLList(f.max !== undefined && f.max <= INT32_MAX ? GraphQLInt : BigIntScalar);
    case 'choice':
      return f.choices!.numeric ? GraphQLInt : GraphQLString;
    default:
      return GraphQLString;
  }
}

/** the GraphQL type of a computed field's declared shape; null when it nests objects we cannot scope */
function shapeType(shape: Shape | undefined): GraphQLOutputType | null {
  if (!shape) return JsonScalar;
  if (JSON.stringify(shape).includes('"$model"')) return null;
  const t = shape.type;
  return t === 'integer'
    ? GraphQLInt
    : t === 'string'
      ? GraphQLString
      : t === 'boolean'
        ? GraphQLBoolean
        : t === 'number'
          ? GraphQLFloat
          : JsonScalar;
}

/**
 * Builds the object type of every model a dialect serves (by model identity); types refer to each
 * other through thunks. A dialect's types show what its REST full form shows, under its names
 * (core/model/dialect.ts): 4.4's renamed fields (`form_factor`), without the fields it hides
 * (`device_role`), with the fields and models NetBox 4 added; 3.4's without those.
 */
export function buildObjectTypes(registry: Registry, dialect: Dialect): Map<string, GraphQLObjectType> {
  const types = new Map<string, GraphQLObjectType>();
  const unions = new Map<string, GraphQLUnionType | null>();
  const typeOf = (name: string) => types.get(name)!;
  const served = (name: string) => {
    const m = registry.find(name);
    return !!m && servedIn(m, dialect);
  };

  /** a generic relation's union of the models it may point at; null when the dialect serves none */
  const unionOf = (model: ModelDef, key: string, f: FieldDef): GraphQLUnionType | null => {
    const name = unionName(model, key);
    let u = unions.get(name);
    if (u === undefined) {
      const members = (genericTargets(registry.find(model.name)!, f) ?? registry.all().map((m) => m.name)).filter(
        served,
      );
      u = members.length
        ? new GraphQLUnionType({
            name,
            types: () => members.map(typeOf),
            resolveType: (node: Node) => typeName(node.model),
          })
        : null;
      unions.set(name, u);
    }
    return u;
  };

  const computedField = (f: FieldDef, name: string): Field | null => {
    // the dialect's own shape where its renderer gives another (4.4's list of NAT outside addresses);
    // other lists of objects (an FHRP group's ip_addresses) are nested lists, which take filters
    const own = f.shapeInDialect?.[dialect];
    const shape = own ?? f.shape;
    const items = own?.type === 'array' ? (own.items as Shape | undefined) : undefined;
    const target = (items ?? shape)?.$model as string | undefined;
    const plainObject =
      target && Object.keys(items ?? shape!).every((k) => k === '$model' || k === 'nullable' || k === 'form');
    if (plainObject) {
      if (!served(target)) return null;
      return computedObjectsField(items ? listOf(typeOf(target)) : typeOf(target), target, name, !!items);
    }
    const properties = shape?.properties as Record<string, Shape> | undefined;
    const choiceLike = properties?.label && properties.value;
    if (choiceLike) {
      // a {value, label} pair (an address family): its value, as choice fields give theirs
      return {
        type: shapeType(choiceLike) ?? JsonScalar,
        resolve: async (node, _a, g) => ((await rendered(g, node, 'full'))?.[name] as Row | null)?.value ?? null,
      };
    }
    const t = shapeType(shape);
    return t && fromRendered(t, name);
  };

  const fieldOf = (model: ModelDef, key: string, f: FieldDef, name: string): Field | null => {
    if (f.kind === 'fk') return served(f.to!) ? byIdField(() => typeOf(f.to!), model, key, `${key}_id`) : null;
    if (f.kind === 'generic') {
      const union = unionOf(model, key, f);
      return union && genericField(union, f, served);
    }
    if (f.kind === 'computed') return computedField(f, name);
    if (f.omittable) return fromRendered(scalarType(f), name);
    if (f.kind === 'choice') return fromRow(scalarType(f), (r) => (r[key] === '' ? null : (r[key] ?? null)));
    if (f.kind === 'decimal') return fromRow(GraphQLFloat, (r) => (r[key] == null ? null : Number(r[key])));
    if ((key === 'created' || key === 'last_updated') && model.timestamps)
      return fromRow(GraphQLString, (r) => renderTimestamp(key, r));
    if (f.scaleIn) return fromRow(scalarType(f), (r) => inUnitOf(f, r[key], dialect));
    return fromRow(scalarType(f), (r) => renderScalar(f, r[key]));
  };

  const fieldsOf = (model: ModelDef): GraphQLFieldConfigMap<Node, GraphqlContext> => {
    const out: GraphQLFieldConfigMap<Node, GraphqlContext> = {
      id: fromRow(new GraphQLNonNull(GraphQLID), (r) => r.id),
      url: { type: GraphQLString, resolve: (node, _a, g) => detailUrl(g.rc.baseUrl, model, node.row.id) },
    };
    // NetBox 4.1+: the object's page in the web interface, as REST's full form gives it
    if (dialect === '4.4')
      out.display_url = { type: GraphQLString, resolve: (node, _a, g) => pageUrl(g.rc.baseUrl, model, node.row.id) };
    out.display = fromRendered(GraphQLString, 'display');
    out.class_type = { type: GraphQLString, resolve: () => componentName(model) };
    for (const [key, f] of Object.entries(model.fields)) {
      if (f.writeOnly || f.kind === 'password' || f.kind === 'm2m' || !shownIn(model, key, f, dialect)) continue;
      const name = wireName(model, key, dialect);
      const field = fieldOf(model, key, f, name);
      const description = f.help ?? f.label;
      if (field) out[name] = description ? { ...field, description } : field;
    }
    for (const key of ['created', 'last_updated'] as const) {
      if (model.timestamps && !(key in out)) out[key] = fromRow(GraphQLString, (r) => renderTimestamp(key, r));
    }
    for (const [key, count] of Object.entries(model.counts)) {
      out[key] = {
        type: GraphQLInt,
        resolve: async (node, _a, g) => {
          const map = await node.batch.once(`count:${key}`, () => fetchCount(g.rc, model, count, node.batch.ids()));
          return map.get(Number(node.row.id)) ?? 0;
        },
      };
    }
    if (hasIn(model.customFields, dialect)) out.custom_fields = fromRendered(JsonScalar, 'custom_fields');
    if (isTreeIn(model, dialect) && !('_depth' in out)) out._depth = fromRendered(GraphQLInt, '_depth');
    for (const list of nestedLists(registry, model, new Set(Object.keys(out)), dialect)) {
      out[list.name] = {
        type: listOf(typeOf(list.model.name)),
        description: list.description,
        args: listArguments(registry, list.model, dialect),
        // one load per field of the query (aliases with other arguments are other field nodes)
        resolve: async (node, args: Record<string, unknown>, g, info) => {
          const map = await node.batch.once(info.fieldNodes[0], () =>
            loadChildren(g, list.model, list.link, node.batch.ids(), readListArgs(registry, list.model, args, dialect)),
          );
          return map.get(Number(node.row.id)) ?? [];
        },
      };
    }
    return out;
  };

  for (const model of registry.all()) {
    if (!servedIn(model, dialect)) continue;
    types.set(
      model.name,
      new GraphQLObjectType({ name: typeName(model), description: model.description, fields: () => fieldsOf(model) }),
    );
  }
  return types;
}
