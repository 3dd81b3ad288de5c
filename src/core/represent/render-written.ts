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
import type { ModelDef } from '../model/types.js';
import type { Row } from './load-related.js';
import { planRender } from './plan.js';
import { takePrefetched, withPrefetch } from './prefetch.js';
import { loadsToRender, render } from './render.js';

/** The full representations of rows a write returned, in their order. */
export async function renderWritten(rc: RequestContext, model: ModelDef, rows: Row[], opts: { created?: boolean } = {}): Promise<Row[]> {
  const plan = planRender(model, 'full');
  if (rows.length === 0 || loadsToRender(rc, model, plan, rows) < 2) return render(rc, model, rows, 'full', { ...opts, plan });
  const ids = rows.map((r) => Number(r.id));
  const byIds = sql`select t.* from unnest(${ids}::bigint[]) with ordinality as o(id, ord)
    join ${sql.table(model.table)} as t on t.id = o.id order by o.ord`;
  const again = (await rc.q.executeQuery<Row>(withPrefetch(rc, model, plan, byIds.compile(rc.q)))).rows;
  const prefetched = takePrefetched(rc, model, plan, again);
  // the stored columns as read now; anything a hook set on the returned rows beside them is kept
  const merged = again.map((row, i) => ({ ...rows[i], ...row }));
  return render(rc, model, merged, 'full', { ...opts, plan, prefetched });
}
