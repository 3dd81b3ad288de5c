/**
 * The constraints of a permission tried against each of its object types, as a page saves it: the
 * query a constraint would add is built (never run), and one that cannot filter a type is named.
 */
import type { RequestContext } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import type { Constraints } from '../../core/context.js';
import { constraintsSql } from '../../core/query/constraints.js';

export function constraintProblems(rc: RequestContext, data: Record<string, unknown>): string[] {
  if (data.constraints == null) return [];
  const problems: string[] = [];
  for (const type of (data.object_types as string[]) ?? []) {
    const model = rc.app.registry.find(type);
    if (!model) continue;
    try {
      constraintsSql(rc, model, [data.constraints as Constraints]);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      problems.push(String((err.body as { detail?: unknown }).detail ?? err.message));
    }
  }
  return problems;
}
