/**
 * One GraphQL object type per registered model, generated from its declaration (no model-specific
 * code): its fields as the REST full form shows them, related objects as objects (loaded per
 * batch, within the user's view scope), generic relations as unions, and nested lists
 * (relations.ts). Values come from the stored row where the row says it all; what REST computes
 * (display, computed fields, custom fields, a token's key) comes from REST's own renderer, run
 * once per batch.
 *
 * Choice fields return the raw value (`"active"`), as NetBox 4 does and the filters take it;
 * NetBox 3.4 returned enum names (`"ACTIVE"`) - see README.md.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  type GraphQLFieldConfig,
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
import type { Registry } from '../model/registry.js';
import { genericTargets } from '../model/define-model.js';
import type { FieldDef, ModelDef, Row, Shape } from '../model/types.js';
import { componentName } from '../openapi/shapes.js';
import { fetchCount, runAll } from '../represent/load-related.js';
import { render, renderScalar, renderTimestamp } from '../represent/render.js';
import { inUnitOf } from '../model/dialect.js';
import { detailUrl } from '../urls.js';
import { listArguments, readListArgs } from './arguments.js';
import type { GraphqlContext, Node } from './batch.js';
import { loadByIds, loadChildren } from './loads.js';
import { typeName, unionName } from './names.js';
import { nestedLists } from './relations.js';
import { BigIntScalar, JsonScalar } from './scalars.js';

type Field = GraphQLFieldConfig<Node, GraphqlContext>;
const INT32_MAX = 2_147_483_647;

const listOf = (t: GraphQLOutputType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)));

/** REST's rendering of the batch (full or nested form), id -> representation. */
async function rendered(g: GraphqlContext, node: Node, mode: 'full' | 'nested'): Promise<Row | undefined> {
  const byId = await node.batch.once(`render:${mode}`, async () => {
    const out = await render(g.rc, node.model, node.batch.rows, mode);
    return new Map(out.map((o) => [Number(o.id), o]));
  });
  return byId.get(Number(node.row.id));
}

const present = (values: unknown[]) => [...new Set(values.filter((v) => v != null).map(Number))];

/** A related object by the id in `column`, loaded for the whole batch at once. */
function byIdField(target: () => GraphQLOutputType, model: ModelDef, key: string, column: string): Field {
  return {
    type: target(),
    resolve: async (node, _args, g) => {
      const id = node.row[column];
      if (id == null) return null;
      const to = g.rc.app.registry.get(model.fields[key]!.to!);
      const map = await node.batch.once(`fk:${key}`, () =>
        loadByIds(g, to, present(node.batch.rows.map((r) => r[column]))),
      );
      return map.get(Number(id)) ?? null;
    },
  };
}

/** A generic relation: the targets of each type present in the batch, one load per type. */
function genericField(type: GraphQLOutputType, f: FieldDef): Field {
  const { type: typeColumn, id: idColumn } = f.generic!;
  return {
    type,
    resolve: async (node, _args, g) => {
      const ty = node.row[typeColumn] as string | null;
      const id = node.row[idColumn];
      if (ty == null || id == null) return null;
      const map = await node.batch.once(`gen:${typeColumn}`, async () => {
        const byType = new Map<string, unknown[]>();
        for (const r of node.batch.rows) {
          const t = r[typeColumn] as string | null;
          if (t != null && g.rc.app.registry.find(t)) byType.set(t, [...(byType.get(t) ?? []), r[idColumn]]);
        }
        const out = new Map<string, Node>();
        await runAll(
          g.rc,
          [...byType].map(([t, ids]) => async () => {
            for (const [i, n] of await loadByIds(g, g.rc.app.registry.get(t), present(ids))) out.set(`${t}:${i}`, n);
          }),
        );
        return out;
      });
      return map.get(`${ty}:${Number(id)}`) ?? null;
    },
  };
}

/** A computed field holding one nested object (`primary_ip`, `nat_outside`): that object, through the view scope. */
function computedObjectField(type: GraphQLOutputType, target: string, key: string): Field {
  return {
    type,
    resolve: async (node, _args, g) => {
      const map = await node.batch.once(`computed:${key}`, async () => {
        const all = await Promise.all(node.batch.nodes.map((n) => rendered(g, n, 'full')));
        return loadByIds(g, g.rc.app.registry.get(target), present(all.map((o) => (o?.[key] as Row | null)?.id)));
      });
      const id = ((await rendered(g, node, 'full'))?.[key] as Row | null)?.id;
      return id == null ? null : (map.get(Number(id)) ?? null);
    },
  };
}

const fromRendered = (type: GraphQLOutputType, key: string, mode: 'full' | 'nested' = 'full'): Field => ({
  type,
  resolve: async (node, _args, g) => (await rendered(g, node, mode))?.[key] ?? null,
});

const fromRow = (type: GraphQLOutputType, read: (row: Row) => unknown): Field => ({
  type,
  resolve: (node) => read(node.row),
});

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

/** Builds every model's object type (by model identity); types refer to each other through thunks. */
export function buildObjectTypes(registry: Registry): Map<string, GraphQLObjectType> {
  const types = new Map<string, GraphQLObjectType>();
  const unions = new Map<string, GraphQLUnionType>();
  const typeOf = (name: string) => types.get(name)!;

  const unionOf = (model: ModelDef, key: string, f: FieldDef): GraphQLUnionType => {
    const name = unionName(model, key);
    let u = unions.get(name);
    if (!u) {
      const members = (genericTargets(registry.find(model.name)!, f) ?? registry.all().map((m) => m.name)).filter((n) =>
        registry.find(n),
      );
      u = new GraphQLUnionType({
        name,
        types: () => members.map(typeOf),
        resolveType: (node: Node) => typeName(node.model),
      });
      unions.set(name, u);
    }
    return u;
  };

  const fieldsOf = (model: ModelDef): GraphQLFieldConfigMap<Node, GraphqlContext> => {
    const out: GraphQLFieldConfigMap<Node, GraphqlContext> = {
      id: fromRow(new GraphQLNonNull(GraphQLID), (r) => r.id),
      url: { type: GraphQLString, resolve: (node, _a, g) => detailUrl(g.rc.baseUrl, model, node.row.id) },
      display: fromRendered(GraphQLString, 'display'),
      class_type: { type: GraphQLString, resolve: () => componentName(model) },
    };
    for (const [key, f] of Object.entries(model.fields)) {
      if (f.writeOnly || f.kind === 'password' || f.kind === 'm2m') continue;
      const description = f.help ?? f.label;
      let field: Field | null;
      if (f.kind === 'fk') field = byIdField(() => typeOf(f.to!), model, key, `${key}_id`);
      else if (f.kind === 'generic') field = genericField(unionOf(model, key, f), f);
      else if (f.kind === 'computed') {
        const target = f.shape?.$model as string | undefined;
        const plainObject =
          target && Object.keys(f.shape!).every((k) => k === '$model' || k === 'nullable' || k === 'form');
        const properties = f.shape?.properties as Record<string, Shape> | undefined;
        const choiceLike = properties?.label && properties.value;
        if (plainObject) field = computedObjectField(typeOf(target), target, key);
        else if (choiceLike) {
          // a {value, label} pair (an address family): its value, as choice fields give theirs
          const valueType = shapeType(choiceLike) ?? JsonScalar;
          field = {
            type: valueType,
            resolve: async (node, _a, g) => ((await rendered(g, node, 'full'))?.[key] as Row | null)?.value ?? null,
          };
        } else {
          const t = shapeType(f.shape);
          field = t && fromRendered(t, key);
        }
      } else if (f.omittable) field = fromRendered(scalarType(f), key);
      else if (f.kind === 'choice') field = fromRow(scalarType(f), (r) => (r[key] === '' ? null : (r[key] ?? null)));
      else if (f.kind === 'decimal') field = fromRow(GraphQLFloat, (r) => (r[key] == null ? null : Number(r[key])));
      else if ((key === 'created' || key === 'last_updated') && model.timestamps)
        field = fromRow(GraphQLString, (r) => renderTimestamp(key, r));
      else if (f.scaleIn)
        field = { type: scalarType(f), resolve: (node, _a, g) => inUnitOf(f, node.row[key], g.rc.dialect) };
      else field = fromRow(scalarType(f), (r) => renderScalar(f, r[key]));
      if (field) out[key] = description ? { ...field, description } : field;
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
    if (model.customFields) out.custom_fields = fromRendered(JsonScalar, 'custom_fields');
    if (model.treeParent && !('_depth' in out)) out._depth = fromRendered(GraphQLInt, '_depth');
    for (const list of nestedLists(registry, model, new Set(Object.keys(out)))) {
      out[list.name] = {
        type: listOf(typeOf(list.model.name)),
        description: list.description,
        args: listArguments(list.model),
        // one load per field of the query (aliases with other arguments are other field nodes)
        resolve: async (node, args: Record<string, unknown>, g, info) => {
          const map = await node.batch.once(info.fieldNodes[0], () =>
            loadChildren(g, list.model, list.link, node.batch.ids(), readListArgs(list.model, args)),
          );
          return map.get(Number(node.row.id)) ?? [];
        },
      };
    }
    return out;
  };

  for (const model of registry.all()) {
    types.set(
      model.name,
      new GraphQLObjectType({ name: typeName(model), description: model.description, fields: () => fieldsOf(model) }),
    );
  }
  return types;
}
