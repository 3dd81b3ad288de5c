/**
 * Reading a user's own bookmarks, subscriptions and notifications for their pages. Every read is
 * filtered by the signed-in user's id, whatever else they may see through the API (a superuser
 * sees everyone's there): these pages only ever show and touch one's own. Subscriptions and
 * notifications are NetBox 4.1 models, served in the 4.4 dialect, so they are read and written
 * in it whatever the deployment's dialect.
 */
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import { requireSignIn } from '../pages/signed-in.js';

/** route option: pages of the signed-in user's own; anyone else is sent to sign in */
export const signedIn = { preHandler: requireSignIn };

/** the context these models are read and written in */
export function ownContext(rc: RequestContext, model: ModelDef): RequestContext {
  return model.dialect && model.dialect !== rc.dialect ? { ...rc, dialect: model.dialect } : rc;
}

/** one page of the user's own objects of `model` (newest first unless `ordering` says otherwise) */
export async function ownRows(
  rc: RequestContext,
  model: ModelDef,
  more: Array<[string, string]> = [],
): Promise<{ count: number; results: Represented[] }> {
  const params = new Map<string, string[]>([['user_id', [String(rc.user!.id)]]]);
  for (const [k, v] of more) params.set(k, [...(params.get(k) ?? []), v]);
  const list = await listObjects(ownContext(rc, model), model, params);
  return { count: Number(list.count ?? 0), results: list.results as Represented[] };
}

/** the ids among `wanted` that are the user's own (others' are left out, as if they did not exist) */
export async function ownIds(rc: RequestContext, model: ModelDef, wanted: number[]): Promise<number[]> {
  if (wanted.length === 0) return [];
  const list = await ownRows(rc, model, [
    ...wanted.map((id): [string, string] => ['id', String(id)]),
    ['limit', String(wanted.length)],
    ['brief', '1'],
  ]);
  return list.results.map((r) => Number(r.id));
}

/** `pk` values of a form (a bulk action's checkboxes), as ids */
export function formIds(request: FastifyRequest): number[] {
  const values = request.formValues?.get('pk') ?? [];
  return [...new Set(values.filter((v) => /^\d{1,15}$/.test(v)).map(Number))];
}

/** a path parameter as an id, or null */
export function idParam(v: string): number | null {
  return /^\d{1,15}$/.test(v) ? Number(v) : null;
}
