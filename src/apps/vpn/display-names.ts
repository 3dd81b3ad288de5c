/** Display strings of related rows, loaded once per page (a termination names its tunnel or L2VPN). */
import type { RequestContext } from '../../core/context.js';
import { fetchRowsById } from '../../core/represent/load-related.js';

/** `type:id` -> display string, for pairs of (model identity, id); unknown models are skipped */
export async function displayNames(
  rc: RequestContext,
  refs: Array<[string | null | undefined, unknown]>,
): Promise<Map<string, string>> {
  const byType = new Map<string, Set<number>>();
  for (const [type, id] of refs) {
    if (type == null || id == null) continue;
    const set = byType.get(type) ?? new Set<number>();
    set.add(Number(id));
    byType.set(type, set);
  }
  const out = new Map<string, string>();
  for (const [type, ids] of byType) {
    const model = rc.app.registry.find(type);
    if (!model) continue;
    for (const row of await fetchRowsById(rc, model, [...ids])) out.set(`${type}:${row.id}`, model.display(row));
  }
  return out;
}
