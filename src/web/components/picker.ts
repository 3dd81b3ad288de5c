/**
 * A control choosing related objects of one model, for filter forms and edit forms alike. Never
 * loads a whole table: when the user may see at most SELECT_MAX objects of the model (after the
 * picker's filters) it is a plain <select> of them; otherwise a <select> of the chosen objects and
 * of those matching the search typed into its companion box (`<name>__search`, submitted with the
 * form's "Search" button and answered by the same page), which inventory.js replaces with type-ahead
 * over the REST API (brief form, `q`, the same filters). Works the same with JavaScript off.
 */
import { countObjects, listObjects } from '../../core/crud/read.js';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { attrs, html, type Html } from '../html.js';

const SELECT_MAX = 100;
/** results offered for a typed search */
const SEARCH_MAX = 50;

export interface PickerOptions {
  /** the input's name (the API field name on forms, `<fk>_id` on filter forms) */
  name: string;
  id: string;
  target: ModelDef;
  selected: string[];
  multiple?: boolean;
  /** REST filters narrowing the choices (a rack picker's `site_id`) */
  filters?: Record<string, string>;
  /**
   * the form fields those filters follow (`{ site_id: 'site' }`): inventory.js asks again when one
   * changes (ModelUi.pickerFilters)
   */
  depends?: Record<string, string>;
  /** the text the user searched for (`<name>__search`), when the form came back to search */
  search?: string;
  required?: boolean;
  /** an empty first option's text (single pickers) */
  emptyLabel?: string;
  describedBy?: string;
  invalid?: boolean;
  /** the value an option carries: the id (default) or the slug/name a filter takes */
  valueKey?: 'id' | 'slug' | 'name';
  /** more `data-*` attributes of the select (a generic reference's types: generic-field.ts) */
  data?: Record<string, string>;
}

type Brief = Record<string, unknown>;

async function brief(rc: RequestContext, target: ModelDef, params: Array<[string, string]>, limit: number) {
  const p = new Map<string, string[]>();
  for (const [k, v] of params) p.set(k, [...(p.get(k) ?? []), v]);
  p.set('brief', ['true']);
  p.set('limit', [String(limit)]);
  return (await listObjects(rc, target, p)).results as Brief[];
}

/**
 * The control, or null when the user may view none of the target model (a form then shows the
 * field without choices: the API refuses any id it is sent, as it would from a client).
 */
export async function picker(rc: RequestContext, o: PickerOptions): Promise<Html | null> {
  const key = o.valueKey ?? 'id';
  const filters = Object.entries(o.filters ?? {}).filter(([, v]) => v !== '');
  const counted = await countObjects(rc, o.target, new Map(filters.map(([k, v]) => [k, [v]])));
  if (counted === null) return null;
  const total = counted;
  const small = total <= SELECT_MAX;
  let options: Brief[] = [];
  if (small) options = await brief(rc, o.target, filters, SELECT_MAX);
  else {
    const chosen = o.selected.filter((v) => v !== '');
    if (chosen.length) {
      const byKey = key === 'id' ? chosen.filter((v) => /^\d+$/.test(v)) : chosen;
      if (byKey.length)
        options = await brief(
          rc,
          o.target,
          byKey.map((v) => [key, v]),
          chosen.length,
        );
    }
    if (o.search) {
      const found = await brief(rc, o.target, [...filters, ['q', o.search]], SEARCH_MAX);
      const have = new Set(options.map((b) => String(b[key])));
      options.push(...found.filter((b) => !have.has(String(b[key]))));
    }
  }
  const chosen = new Set(o.selected);
  const select = html`<select${attrs({
    id: o.id,
    name: o.name,
    multiple: o.multiple ?? false,
    required: o.required ?? false,
    'aria-invalid': o.invalid ? 'true' : null,
    'aria-describedby': o.describedBy ?? null,
    'data-picker': `/api/${o.target.app}/${o.target.path}/`,
    'data-picker-key': key,
    'data-picker-filters': filters.length ? new URLSearchParams(filters).toString() : null,
    'data-picker-depends': o.depends ? JSON.stringify(o.depends) : null,
    ...o.data,
  })}>${o.multiple ? '' : html`<option value="">${o.emptyLabel ?? '---------'}</option>`}${options.map((b) => {
    const v = String(b[key] ?? '');
    return html`<option${attrs({ value: v, selected: chosen.has(v) })}>${String(b.display ?? b.name ?? b.id)}</option>`;
  })}</select>`;
  if (small) return select;
  // too many to list: a search box beside the select, answered by the page itself
  const searchId = `${o.id}__search`;
  return html`<span class="picker-large">${select}<span class="picker-search"><label class="sr-only" for="${searchId}">Search ${o.target.verboseNamePlural}</label><input type="search" id="${searchId}" name="${o.name}__search" value="${o.search ?? ''}" placeholder="Search ${total.toLocaleString('en')} ${o.target.verboseNamePlural}"><button type="submit" name="_picker" value="${o.name}" formnovalidate>Search</button></span></span>`;
}
