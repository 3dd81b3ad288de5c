/**
 * A list's filter form, made from the model's fields as its REST filters name them: the quick
 * search `q`, a select per choice field, a picker per foreign key (`<fk>_id`), yes/no per boolean,
 * and tags by slug. It is a GET form, so a filtered list is a URL; any other REST filter and lookup
 * (`name__ic=core`) works typed into the URL and shows as a chip like these do.
 */
import { hasPermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef, UiFilter } from '../../core/model/types.js';
import { attrs, html, type Html } from '../html.js';
import { appLabel, capitalize } from '../labels.js';
import { columnLabel } from './object-table.js';
import { picker } from './picker.js';

export type Query = Map<string, string[]>;

/** list parameters that are the page's own, never filters: `done` (what a bulk page did) and
 * `imported` (what an import made), each said once on the list they return to */
const PAGE_PARAMS = new Set(['sort', 'per_page', 'page', '_picker', 'done', 'imported']);

export function isFilterParam(name: string): boolean {
  return !PAGE_PARAMS.has(name) && !name.endsWith('__search');
}

/** fks to models with too many kinds of rows to be a useful first filter are left to the URL */
const MAX_PICKERS = 8;

/**
 * `keep`: the page's own parameters the form carries over as hidden inputs (the list's sort and
 * page size; the rack elevations' face too). `maxPickers`: how many fk filters get a picker (each
 * costs a statement or two); an object's tab passes 0, its rows being one object's already (the fk
 * filters still work in the URL, as chips)
 */
export async function filterForm(
  rc: RequestContext,
  model: ModelDef,
  query: Query,
  action: string,
  {
    keep: keepParams = ['sort', 'per_page'],
    maxPickers = MAX_PICKERS,
  }: { keep?: readonly string[]; maxPickers?: number } = {},
): Promise<Html> {
  const controls: Html[] = [];
  const values = (name: string) => query.get(name) ?? [];
  let pickers = 0;
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.noFilter || f.writeOnly) continue;
    const id = `filter-${key}`;
    const label = columnLabel(model, key);
    if (f.kind === 'choice') {
      const chosen = new Set(values(key));
      controls.push(
        html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${key}" multiple size="3">${f.choices!.choices.map(
          (c) =>
            html`<option${attrs({ value: String(c.value), selected: chosen.has(String(c.value)) })}>${c.label}</option>`,
        )}</select></div>`,
      );
    } else if (f.kind === 'boolean') {
      const v = values(key)[0] ?? '';
      controls.push(
        html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${key}">${[
          ['', 'Any'],
          ['true', 'Yes'],
          ['false', 'No'],
        ].map(
          ([val, text]) => html`<option${attrs({ value: val, selected: v === val })}>${text}</option>`,
        )}</select></div>`,
      );
    } else if (f.kind === 'fk' && f.to && pickers < maxPickers) {
      const target = rc.app.registry.find(f.to);
      if (!target || target.name === model.name) continue;
      pickers += 1;
      const name = `${key}_id`;
      controls.push(
        html`<div class="field"><label for="${id}">${label}</label>${await picker(rc, {
          name,
          id,
          target,
          selected: values(name),
          multiple: true,
          search: values(`${name}__search`)[0],
        })}</div>`,
      );
    }
  }
  if (model.tags) {
    const tags = rc.app.registry.find('extras.tag');
    if (tags) {
      controls.push(
        html`<div class="field"><label for="filter-tag">Tags</label>${await picker(rc, {
          name: 'tag',
          id: 'filter-tag',
          target: tags,
          selected: values('tag'),
          multiple: true,
          valueKey: 'slug',
          search: values('tag__search')[0],
        })}</div>`,
      );
    }
  }
  for (const f of model.ui?.filters ?? []) controls.push(hintedFilter(rc, f, values(f.name)));
  const keep = keepParams.flatMap((k) => values(k).map((v) => html`<input type="hidden" name="${k}" value="${v}">`));
  const active = [...query.keys()].some((k) => isFilterParam(k) && k !== 'q' && !keepParams.includes(k));
  return html`<form class="filters" method="get" action="${action}" role="search" aria-label="Filter ${model.verboseNamePlural}">
  <div class="quick"><label class="sr-only" for="filter-q">Quick search</label><input type="search" id="filter-q" name="q" value="${values('q')[0] ?? ''}" placeholder="Quick search"><button type="submit">Search</button></div>
  ${keep}
  <details class="more"${attrs({ open: active })}><summary>Filters</summary><div class="filter-grid">${controls}</div><p><button type="submit">Apply</button> <a href="${action}">Reset</a></p></details>
</form>`;
}

/**
 * A filter no field makes (the model's `ui.filters` hint): a date and time (the database's time
 * zone, UTC, when none is typed), free text, or a select of the registered models by identity
 */
function hintedFilter(rc: RequestContext, f: UiFilter, chosen: string[]): Html {
  const id = `filter-${f.name}`;
  if (f.input === 'objecttype') {
    const models = rc.app.registry
      .all()
      .filter((m) => m.changelog)
      .map((m) => ({ value: m.name, label: `${appLabel(m.app)} › ${capitalize(m.verboseName)}` }))
      .sort((a, b) => a.label.localeCompare(b.label));
    const picked = new Set(chosen);
    return html`<div class="field"><label for="${id}">${f.label}</label><select id="${id}" name="${f.name}"><option value="">Any</option>${models.map(
      (m) => html`<option${attrs({ value: m.value, selected: picked.has(m.value) })}>${m.label}</option>`,
    )}</select></div>`;
  }
  const value = chosen[0] ?? '';
  if (f.input === 'datetime')
    return html`<div class="field"><label for="${id}">${f.label} <span class="muted">(UTC)</span></label><input type="datetime-local" id="${id}" name="${f.name}" value="${/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? value : ''}" step="1"></div>`;
  return html`<div class="field"><label for="${id}">${f.label}</label><input type="text" id="${id}" name="${f.name}" value="${value}"></div>`;
}

/**
 * The active filters as chips, each a link to the same list without that value. Ids of related
 * objects are named by their display (one statement per filtered relation, not per chip).
 */
export async function filterChips(
  rc: RequestContext,
  model: ModelDef,
  query: Query,
  href: (q: Query) => string,
): Promise<Html> {
  const chips: Html[] = [];
  for (const [name, vals] of query) {
    if (!isFilterParam(name)) continue;
    const names = await valueNames(rc, model, name, vals);
    for (const v of vals) {
      if (v === '') continue;
      const rest = new Map(query);
      const left = vals.filter((x) => x !== v);
      if (left.length) rest.set(name, left);
      else rest.delete(name);
      rest.delete('page');
      const field = name.replace(/_id$/, '').replace(/__.*$/, '');
      const hinted = model.ui?.filters?.find((f) => f.name === name)?.label;
      const label =
        name === 'q'
          ? 'Search'
          : (hinted ?? columnLabel(model, field) + (name.includes('__') ? ` (${name.split('__')[1]})` : ''));
      chips.push(
        html`<a class="chip filter-chip" href="${href(rest)}" aria-label="Remove filter ${label}: ${names.get(v) ?? v}">${label}: ${names.get(v) ?? v} <span aria-hidden="true">×</span></a>`,
      );
    }
  }
  return chips.length ? html`<div class="chips active-filters">${chips}</div>` : html``;
}

async function valueNames(
  rc: RequestContext,
  model: ModelDef,
  name: string,
  vals: string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const f = model.fields[name.replace(/_id$/, '')];
  if (f?.kind === 'choice') for (const v of vals) out.set(v, f.choices!.labels.get(v) ?? v);
  if (f?.kind === 'fk' && name.endsWith('_id') && f.to) {
    const target = rc.app.registry.find(f.to);
    const ids = vals.filter((v) => /^\d+$/.test(v));
    if (target && ids.length && (await hasPermission(rc, target, 'view'))) {
      const page = await listObjects(
        rc,
        target,
        new Map([
          ['id', ids],
          ['brief', ['true']],
          ['limit', [String(ids.length)]],
        ]),
      );
      for (const r of page.results as Array<Record<string, unknown>>) out.set(String(r.id), String(r.display ?? r.id));
    }
  }
  return out;
}
