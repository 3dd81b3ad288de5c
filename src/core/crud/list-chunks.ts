/**
 * A whole list (every page) read in chunks, for exports that may hold 100,000 objects: the list's
 * conditions (filters, saved filters, the view scope: read.ts listConditions) and its order are
 * applied once, to read the ids in order; then each chunk of ids is read and represented as a
 * list page represents its rows. Memory holds the ids and one chunk, whatever the list's size,
 * and each chunk costs the same (no growing OFFSET to skip).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import type { Params } from '../query/filters.js';
import type { Cond } from '../query/lookups.js';
import { buildOrdering } from '../query/ordering.js';
import { listConditions, readAndRender, whereSql } from './read.js';

/** objects read and represented per statement */
const CHUNK = 500;

export interface ChunkedList {
  count: number;
  chunks: () => AsyncGenerator<Array<Record<string, unknown>>>;
}

/**
 * The list `params` describes, in its order (`ordering`), narrowed by `more` conditions. The ids
 * are read here, so a bad filter or a refused view fails before anything is sent.
 */
export async function listInChunks(
  rc: RequestContext,
  model: ModelDef,
  params: Params,
  more: Cond[] = [],
): Promise<ChunkedList> {
  const conds = [...(await listConditions(rc, model, params)), ...more];
  const table = sql.table(model.table);
  const order = sql.join(buildOrdering(rc.app.registry, model, params.get('ordering')));
  const res = await sql<{ id: number }>`select t.id from ${table} as t ${whereSql(conds)} order by ${order}`.execute(
    rc.q,
  );
  const ids = res.rows.map((r) => Number(r.id));
  async function* chunks() {
    for (let at = 0; at < ids.length; at += CHUNK) {
      const slice = ids.slice(at, at + CHUNK);
      const rows = (await readAndRender(
        rc,
        model,
        params,
        (columns) => sql`select ${columns} from ${table} as t where t.id = any(${slice}::bigint[])`,
      )) as Array<Record<string, unknown>>;
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      yield slice.map((id) => byId.get(id)).filter((r) => r !== undefined);
    }
  }
  return { count: ids.length, chunks };
}
