/**
 * What a bulk page acts on. A list posts either the ticked rows (`pk`, NetBox's name) or `_all`: every
 * object the list's filters match, however many pages they span. The filters travel in the form's
 * URL (NetBox: "the POST URL's filter query") with `_count`, the number the list showed; the ids
 * are read again from the filters each time a bulk page is posted, and a commit whose filters now
 * match a different number is refused, nothing written (NetBox #17963, #18494).
 */
import type { FastifyRequest } from 'fastify';
import { idsWithin, matchingIds } from '../../../core/crud/matching-ids.js';
import { listObjects } from '../../../core/crud/read.js';
import { Errors } from '../../../core/errors.js';
import type { ModelDef } from '../../../core/model/types.js';
import type { Represented } from '../../components/cells.js';
import { isFilterParam } from '../../components/filter-form.js';
import { html, type Html } from '../../html.js';
import { hrefOf, type Query, queryOf } from '../page-shell.js';

export interface Selection {
  ids: number[];
  /** chosen as "all matching the filters" rather than row by row */
  all: boolean;
  /** the list's filters (the URL query), kept in every form of the bulk page */
  filters: Query;
}

/** what a bulk page's own query string carries that is not a filter */
const NOT_FILTERS = new Set(['return_url', 'done', 'export']);

/** the list's filters of a request's URL (what `_all` means) */
export function filtersOf(query: Query): Query {
  const out: Query = new Map();
  for (const [k, vs] of query) if (isFilterParam(k) && !NOT_FILTERS.has(k)) out.set(k, vs);
  return out;
}

const plural = (model: ModelDef) => model.verboseNamePlural;
const idList = (ids: number[]) => ids.slice(0, 20).join(', ') + (ids.length > 20 ? ', ...' : '');

/**
 * The posted selection, checked against the database and the user's permission for `action`: ids
 * that no longer exist (or are hidden) and ids the user may not act on are refused by name, and
 * nothing is done with the rest.
 */
export async function selectionOf(
  request: FastifyRequest,
  model: ModelDef,
  action: 'view' | 'change' | 'delete',
): Promise<Selection> {
  const rc = request.rc;
  const form = request.formValues ?? new Map<string, string[]>();
  const filters = filtersOf(queryOf(request));
  const all = (form.get('_all') ?? []).some((v) => v === 'true' || v === 'on');
  let ids: number[];
  if (all) {
    ids = await matchingIds(rc, model, filters);
    const shown = form.get('_count')?.[0];
    if (shown !== undefined && Number(shown) !== ids.length)
      throw Errors.conflict(
        `The filters now match ${ids.length.toLocaleString('en')} ${plural(model)}, not the ${Number(shown).toLocaleString('en')} you selected: nothing was changed. Review the list and select again.`,
      );
  } else {
    const raw = (form.get('pk') ?? []).filter((v) => v !== '');
    const bad = raw.find((v) => !/^\d{1,15}$/.test(v));
    if (bad !== undefined) throw Errors.badRequest(`"${bad}" is not the id of a ${model.verboseName}.`);
    ids = [...new Set(raw.map(Number))];
  }
  if (!ids.length) throw Errors.badRequest(`No ${plural(model)} were selected.`);
  const visible = await idsWithin(rc, model, ids, 'view');
  if (visible.length < ids.length) {
    const gone = ids.filter((id) => !visible.includes(id));
    throw Errors.badRequest(
      `${gone.length} of the selected ${plural(model)} no longer exist (ids ${idList(gone)}): nothing was changed.`,
    );
  }
  const allowed = action === 'view' ? visible : await idsWithin(rc, model, ids, action);
  if (allowed.length < ids.length) {
    const refused = ids.filter((id) => !allowed.includes(id));
    throw Errors.permissionDenied(
      `You may not ${action} ${refused.length} of the selected ${plural(model)} (ids ${idList(refused)}): nothing was changed.`,
    );
  }
  return { ids, all, filters };
}

/** the hidden inputs that post the same selection again */
export function selectionInputs(sel: Selection): Html {
  if (sel.all)
    return html`<input type="hidden" name="_all" value="true"><input type="hidden" name="_count" value="${String(sel.ids.length)}">`;
  return html`${sel.ids.map((id) => html`<input type="hidden" name="pk" value="${String(id)}">`)}`;
}

/** a bulk page's form action: `<list><kind>/`, with the filters when they chose the objects */
export function bulkAction(listPath: string, kind: string, sel: Selection): string {
  return hrefOf(`${listPath}${kind}/`, sel.all ? sel.filters : new Map());
}

/** how many of the selected objects a bulk page names (the rest are counted) */
export const SHOWN_MAX = 100;

/** the first SHOWN_MAX selected objects as the API represents them (brief), by id */
export async function selectedObjects(
  request: FastifyRequest,
  model: ModelDef,
  ids: number[],
): Promise<Map<number, Represented>> {
  const shown = ids.slice(0, SHOWN_MAX);
  const params: Query = new Map([
    ['id', shown.map(String)],
    ['limit', [String(SHOWN_MAX)]],
    ['brief', ['true']],
  ]);
  const list = (await listObjects(request.rc, model, params)) as { results: Represented[] };
  return new Map(list.results.map((r) => [Number(r.id), r]));
}

/** an object's name on a bulk page */
export function nameOf(objects: Map<number, Represented>, model: ModelDef, id: number): string {
  const o = objects.get(id);
  return String(o?.display ?? `${model.verboseName} ${id}`);
}

/** where a bulk page returns: a same-site `return_url`, else the list with the filters; with `done` */
export function doneUrl(returnUrl: string, fallback: string, done: string): string {
  const base = returnUrl || fallback;
  return `${base}${base.includes('?') ? '&' : '?'}done=${encodeURIComponent(done)}`;
}
