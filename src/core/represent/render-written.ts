/**
 * Rendering the rows a write returned (`insert ... returning *`, `update ... returning *`).
 *
 * Rendered as they are, rows load what they show one statement per relation (render.ts), each a
 * round trip inside the write's transaction: a device's four parents and ten component counts
 * were 14 statements after its insert. When that is more than one, the rows are read again, in the
 * same transaction, with all of it prefetched as a detail is (prefetch.ts): one statement. Rows
 * that need at most one load - an address created with no parent, the common single create - are
 * rendered from hand, as a re-read would cost a statement they do not need.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';
import type { M2mMembers } from './load-related.js';
import { planRender } from './plan.js';
import { type Prefetched, takePrefetched, withPrefetch } from './prefetch.js';
import { loadsToRender, render } from './render.js';

/**
 * What a create knows of the rows it returned without reading anything (write-service.ts
 * createObjects, for a model whose creates run no afterWrite or afterCreate hook): nothing else was
 * written while they were created, and no row can point at a row before it exists, so their counts
 * are 0 and their representRows empty; their m2m fields hold what the write stored (covered here
 * only when empty, as a member would still need its row to render). Their tags need nothing here:
 * rows created without any are in RequestContext.untagged, which loadsToRender and fetchTags read.
 * Keyed by the array createObjects returned, which routes hand to renderWritten as is.
 */
const knownOfCreated = new WeakMap<Row[], Prefetched>();

export function rememberCreated(model: ModelDef, rows: Row[], members: M2mMembers): void {
  const covered = new Set<string>();
  for (const [key, owners] of members) if (owners.size === 0) covered.add(`m2m:${key}`);
  for (const key of Object.keys(model.counts)) covered.add(`count:${key}`);
  knownOfCreated.set(rows, {
    covered,
    rows: new Map(),
    m2m: new Map([...members].filter(([, owners]) => owners.size === 0)),
    counts: new Map(Object.keys(model.counts).map((key) => [key, new Map<number, number>()])),
    // render reads a hook's rows from here when present (render.ts readRows)
    hookRows: new Map(Object.keys(model.representRows ?? {}).map((key) => [key, []])),
  });
}

/** The full representations of rows a write returned, in their order. */
export async function renderWritten(
  rc: RequestContext,
  model: ModelDef,
  rows: Row[],
  opts: { created?: boolean } = {},
): Promise<Row[]> {
  const plan = planRender(model, 'full', { dialect: rc.dialect, every: rc.everyField });
  const known = knownOfCreated.get(rows);
  if (rows.length === 0 || loadsToRender(rc, model, plan, rows, known) < 2)
    return render(rc, model, rows, 'full', { ...opts, plan, prefetched: known });
  const ids = rows.map((r) => Number(r.id));
  const byIds = sql`select t.* from unnest(${ids}::bigint[]) with ordinality as o(id, ord)
    join ${sql.table(model.table)} as t on t.id = o.id order by o.ord`;
  const again = (await rc.q.executeQuery<Row>(withPrefetch(rc, model, plan, byIds.compile(rc.q)))).rows;
  const prefetched = takePrefetched(rc, model, plan, again);
  // the stored columns as read now; anything a hook set on the returned rows beside them is kept
  const merged = again.map((row, i) => ({ ...rows[i], ...row }));
  return render(rc, model, merged, 'full', { ...opts, plan, prefetched });
}
