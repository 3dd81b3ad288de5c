/**
 * How one field of an object type finds its value (object-types.ts decides which fields a type
 * has): from the stored row, from REST's own rendering of the batch, or by loading related objects
 * for the whole batch at once, within the user's view scope (loads.ts). Every load is memoised on
 * the batch (batch.ts), so a field costs one statement per level, not one per object.
 */
import type { GraphQLFieldConfig, GraphQLOutputType } from 'graphql';
import type { FieldDef, ModelDef, Row } from '../model/types.js';
import { runAll } from '../represent/load-related.js';
import { render } from '../represent/render.js';
import type { GraphqlContext, Node } from './batch.js';
import { loadByIds } from './loads.js';

export type Field = GraphQLFieldConfig<Node, GraphqlContext>;

/**
 * REST's rendering of the batch (full or nested form), id -> representation. Its keys are the
 * request's dialect's names (a rack's `form_factor` in 4.4), and the schema answering a request
 * is that dialect's.
 */
export async function rendered(g: GraphqlContext, node: Node, mode: 'full' | 'nested'): Promise<Row | undefined> {
  const byId = await node.batch.once(`render:${mode}`, async () => {
    const out = await render(g.rc, node.model, node.batch.rows, mode);
    return new Map(out.map((o) => [Number(o.id), o]));
  });
  return byId.get(Number(node.row.id));
}

const present = (values: unknown[]) => [...new Set(values.filter((v) => v != null).map(Number))];

/** A related object by the id in `column`, loaded for the whole batch at once. */
export function byIdField(target: () => GraphQLOutputType, model: ModelDef, key: string, column: string): Field {
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
export function genericField(type: GraphQLOutputType, f: FieldDef, served: (model: string) => boolean): Field {
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
          // a target of a model the schema's dialect does not serve is not a member of the union
          if (t != null && served(t)) byType.set(t, [...(byType.get(t) ?? []), r[idColumn]]);
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

/**
 * A computed field holding nested objects (`primary_ip`; NAT outside, one address in 3.4 and a
 * list in 4.4): those objects, loaded again through the view scope. `name` is the rendered key.
 */
export function computedObjectsField(type: GraphQLOutputType, target: string, name: string, many: boolean): Field {
  const idsOf = (o: Row | undefined): unknown[] => {
    const v = o?.[name];
    return (Array.isArray(v) ? v : [v]).map((x) => (x as Row | null)?.id).filter((id) => id != null);
  };
  return {
    type,
    resolve: async (node, _args, g) => {
      const map = await node.batch.once(`computed:${name}`, async () => {
        const all = await Promise.all(node.batch.nodes.map((n) => rendered(g, n, 'full')));
        return loadByIds(g, g.rc.app.registry.get(target), present(all.flatMap(idsOf)));
      });
      const found = idsOf(await rendered(g, node, 'full')).flatMap((id) => map.get(Number(id)) ?? []);
      return many ? found : (found[0] ?? null);
    },
  };
}

export const fromRendered = (type: GraphQLOutputType, name: string, mode: 'full' | 'nested' = 'full'): Field => ({
  type,
  resolve: async (node, _args, g) => (await rendered(g, node, mode))?.[name] ?? null,
});

export const fromRow = (type: GraphQLOutputType, read: (row: Row) => unknown): Field => ({
  type,
  resolve: (node) => read(node.row),
});
