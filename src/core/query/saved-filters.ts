/**
 * `?filter=<slug>` and `?filter_id=<id>` on every list (reference 5; NetBox 3.4+ applies them in
 * its base filterset): the named saved filters' parameters join the request's own, a key present
 * in both taking the values of both (repeated values OR, as in NetBox's merge of the two query
 * dictionaries; a filter that takes one value, such as `q` or `__gt`, takes the saved filter's, the
 * last one there). Several saved filters may be named.
 *
 * NetBox applies any saved filter it finds by slug or id and silently skips unknown ones; here each
 * one named must exist and be usable (the saved-filters list's `usable`: enabled, and shared or the
 * caller's own), and be for the listed model, or the list answers 400 under `filter` / `filter_id`
 * (never ignored: docs/api-differences.md, "Strict input"). A private filter of another user is
 * reported as unknown, so its existence does not leak. A stored parameter whose value the list
 * cannot take is a 400 naming the saved filter, under the parameter that named it.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { ApiError, Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { type Params, resolveFilter } from './filters.js';

const SAVED_FILTER_PARAMS = ['filter', 'filter_id'] as const;

interface SavedFilterRow {
  id: number | string;
  slug: string;
  user_id: number | string | null;
  enabled: boolean;
  shared: boolean;
  content_types: string[];
  parameters: Record<string, unknown>;
}

/** One saved filter as named by the request, with the parameter that named it. */
interface Named {
  param: 'filter' | 'filter_id';
  value: string;
  row: SavedFilterRow;
}

const unknownChoice = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;

function namesSavedFilters(params: Params): boolean {
  return SAVED_FILTER_PARAMS.some((p) => (params.get(p) ?? []).some((v) => v !== ''));
}

/** The saved filters the request names, checked; throws a 400 for one it cannot use. */
async function loadNamed(rc: RequestContext, model: ModelDef, params: Params): Promise<Named[]> {
  const slugs = (params.get('filter') ?? []).filter((v) => v !== '');
  const ids = (params.get('filter_id') ?? []).filter((v) => v !== '');
  for (const v of ids)
    if (!/^\d{1,15}$/.test(v)) throw Errors.invalidFilter('filter_id', `"${v}" is not a valid value.`);
  const res =
    await sql<SavedFilterRow>`select id, slug, user_id, enabled, shared, content_types, parameters from extras_savedfilter
    where slug = any(${slugs}::text[]) or id = any(${ids.map(Number)}::bigint[])`.execute(rc.q);
  const visible = (r: SavedFilterRow) =>
    r.shared || (rc.user !== null && rc.user !== undefined && Number(r.user_id) === rc.user.id);
  const named: Named[] = [];
  const pick = (param: Named['param'], value: string, row: SavedFilterRow | undefined) => {
    if (!row || !visible(row)) throw Errors.invalidFilter(param, unknownChoice(value));
    if (!row.enabled) throw Errors.invalidFilter(param, `Saved filter "${row.slug}" is disabled.`);
    if (!row.content_types.includes(model.name))
      throw Errors.invalidFilter(param, `Saved filter "${row.slug}" does not apply to ${model.name}.`);
    named.push({ param, value, row });
  };
  for (const s of slugs)
    pick(
      'filter',
      s,
      res.rows.find((r) => r.slug === s),
    );
  for (const i of ids)
    pick(
      'filter_id',
      i,
      res.rows.find((r) => Number(r.id) === Number(i)),
    );
  return named;
}

/** A saved filter's parameters as query parameter values (a list stands for repeated values). */
function asParams(parameters: Record<string, unknown>): Params {
  const out: Params = new Map();
  for (const [key, value] of Object.entries(parameters)) {
    if (SAVED_FILTER_PARAMS.includes(key as 'filter')) continue; // saved filters do not nest
    out.set(key, (Array.isArray(value) ? value : [value]).map(String));
  }
  return out;
}

/**
 * The request's filter parameters with those of the saved filters it names merged in. `check`
 * builds the conditions of one saved filter's parameters alone, so a bad stored value is reported
 * as the saved filter's.
 */
export async function withSavedFilters(
  rc: RequestContext,
  model: ModelDef,
  params: Params,
  check: (params: Params) => Promise<unknown>,
): Promise<Params> {
  if (!namesSavedFilters(params)) return params;
  const merged: Params = new Map(params);
  for (const { param, row } of await loadNamed(rc, model, params)) {
    const own = asParams(row.parameters);
    try {
      await check(own);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== Errors.invalidFilter.code) throw err;
      const [key, messages] = Object.entries(err.body as Record<string, string[]>)[0] ?? ['?', []];
      throw Errors.invalidFilter(param, `Saved filter "${row.slug}": ${key}: ${messages[0] ?? 'Invalid value.'}`);
    }
    for (const [key, values] of own) {
      // a filter taking one value reads the last one NetBox's merge leaves (the saved filter's)
      const single = key === 'q' || resolveFilter(model, key)?.multi === false;
      merged.set(key, single ? values : [...(merged.get(key) ?? []), ...values]);
    }
  }
  return merged;
}
