/**
 * The controls of the add and edit forms, one per field kind, each with its label (`<label for>`),
 * the required mark, its current value(s) and its messages. Input names are the API field names
 * (custom fields `cf_<name>`), ids are Django's (`id_<name>`), so NetBox scripts and tests find them.
 */
import type { CustomFieldDef, RequestContext } from '../../core/context.js';
import type { FieldDef } from '../../core/model/types.js';
import { attrs, html, type Html, type HtmlValue } from '../html.js';
import { capitalize } from '../labels.js';
import { type PickerOptions, picker } from './picker.js';

/** what one control shows: its values as posted or read, its errors, and what its picker needs */
export interface ControlState {
  values: string[];
  errors: string[];
  /** a picker's REST filters (from other fields of the form) */
  filters?: Record<string, string>;
  /** the fields those filters follow (ModelUi.pickerFilters), for inventory.js */
  depends?: Record<string, string>;
  /** a large picker's typed search */
  search?: string;
  /** the form edits a stored object (a blank password then keeps the current one) */
  editing?: boolean;
}

export const inputId = (name: string) => `id_${name}`;

/**
 * a JSON field whose shape is a list of `[lower, upper]` integer pairs (a VLAN group's
 * `vid_ranges`): the form shows and takes it as NetBox's does, as text (`1-99, 200-300`)
 */
export function isRangeList(f: FieldDef): boolean {
  const items = f.shape?.items as { type?: unknown; items?: { type?: unknown }; minItems?: unknown } | undefined;
  return (
    f.kind === 'json' &&
    f.shape?.type === 'array' &&
    items?.type === 'array' &&
    items.items?.type === 'integer' &&
    items.minItems === 2
  );
}

export function labelOf(key: string, f?: { label?: string }): string {
  return capitalize(f?.label ?? key.replace(/_/g, ' '));
}

function errorAttrs(name: string, errors: string[]) {
  return errors.length ? { 'aria-invalid': 'true', 'aria-describedby': `${inputId(name)}-error` } : {};
}

/** a labelled row: the label (with `*` when required), the control, help, messages */
export function fieldRow(
  name: string,
  label: string,
  required: boolean,
  control: HtmlValue,
  s: ControlState,
  help?: string,
): Html {
  return html`<div class="field${s.errors.length ? ' invalid' : ''}">
  <label for="${inputId(name)}">${label}${required ? html` <span class="required" aria-hidden="true">*</span>` : ''}</label>
  ${control}
  ${help ? html`<p class="muted">${help}</p>` : ''}
  ${s.errors.length ? html`<p class="field-error" id="${inputId(name)}-error">${s.errors.join(' ')}</p>` : ''}
</div>`;
}

function select(
  name: string,
  options: Array<[string, string]>,
  s: ControlState,
  required: boolean,
  multiple = false,
): Html {
  const chosen = new Set(s.values);
  // a long multiple choice shows a dozen rows, not the browser's four (a permission's object types)
  const size = multiple && options.length > 8 ? Math.min(options.length, 12) : undefined;
  return html`<select${attrs({ id: inputId(name), name, required, multiple, size, ...errorAttrs(name, s.errors) })}>${
    !multiple && !required ? html`<option value="">---------</option>` : ''
  }${options.map(([v, l]) => html`<option${attrs({ value: v, selected: chosen.has(v) })}>${l}</option>`)}</select>`;
}

function input(
  name: string,
  type: string,
  s: ControlState,
  required: boolean,
  more: Record<string, string | number | boolean | null | undefined> = {},
): Html {
  return html`<input${attrs({ type, id: inputId(name), name, value: s.values[0] ?? '', required, ...more, ...errorAttrs(name, s.errors) })}>`;
}

function textarea(name: string, s: ControlState, required: boolean, rows = 4): Html {
  return html`<textarea${attrs({ id: inputId(name), name, rows, required, ...errorAttrs(name, s.errors) })}>${s.values[0] ?? ''}</textarea>`;
}

function checkbox(name: string, s: ControlState): Html {
  return html`<input${attrs({ type: 'checkbox', id: inputId(name), name, value: 'true', checked: s.values.includes('true'), ...errorAttrs(name, s.errors) })}>`;
}

/**
 * a picker, or when the user may not view the target model, a select of the chosen values alone
 * (by id: kept as they are, and the API decides whether the user may write them)
 */
async function shownPicker(rc: RequestContext, o: PickerOptions): Promise<Html> {
  const control = await picker(rc, o);
  if (control) return control;
  const chosen = o.selected.filter((v) => v !== '');
  return html`<select${attrs({ id: o.id, name: o.name, multiple: o.multiple ?? false, required: o.required ?? false, 'aria-invalid': o.invalid ? 'true' : null, 'aria-describedby': o.describedBy ?? null })}>${
    o.multiple ? '' : html`<option value="">---------</option>`
  }${chosen.map((v) => html`<option value="${v}" selected>${o.target.verboseName} ${v}</option>`)}</select>`;
}

/** the control of one model field (kinds without one, generic and computed, never get here) */
export async function fieldControl(rc: RequestContext, key: string, f: FieldDef, s: ControlState): Promise<Html> {
  const required = f.required === true;
  const label = labelOf(key, f);
  const row = (control: HtmlValue) => fieldRow(key, label, required, control, s, f.help);
  switch (f.kind) {
    case 'text':
      return row(textarea(key, s, required, key === 'comments' ? 8 : 4));
    case 'json':
      if (isRangeList(f))
        return fieldRow(
          key,
          label,
          required,
          input(key, 'text', s, required),
          s,
          f.help ?? 'Ranges, such as 1-99, 200-300.',
        );
      return row(textarea(key, s, required, 6));
    case 'integer':
    case 'decimal':
      return row(
        input(key, 'number', s, required, {
          step: f.kind === 'decimal' ? (1 / 10 ** (f.decimalPlaces ?? 2)).toFixed(f.decimalPlaces ?? 2) : null,
          min: f.min,
          max: f.max,
        }),
      );
    case 'boolean':
      return fieldRow(key, label, false, checkbox(key, s), s, f.help);
    case 'date':
      return row(input(key, 'date', s, required));
    case 'datetime':
      return row(input(key, 'datetime-local', s, required));
    case 'password':
      // editing: blank keeps the current password (form-input.ts bodyFromForm leaves it out)
      return fieldRow(
        key,
        label,
        required && !s.editing,
        input(key, 'password', { ...s, values: [] }, required && !s.editing, { autocomplete: 'new-password' }),
        s,
        s.editing ? 'Leave blank to keep the current password.' : f.help,
      );
    case 'choice':
      return row(
        select(
          key,
          (f.choices?.choices ?? []).map((c) => [String(c.value), c.label]),
          s,
          required,
        ),
      );
    case 'contenttype': {
      const types = f.types ?? rc.app.registry.all().map((m) => m.name);
      return row(
        select(
          key,
          types.map((t) => [t, t]),
          s,
          required,
        ),
      );
    }
    case 'fk':
    case 'm2m': {
      const target = rc.app.registry.find(f.to!);
      if (!target) return row(input(key, 'text', s, required));
      return row(
        await shownPicker(rc, {
          name: key,
          id: inputId(key),
          target,
          selected: s.values,
          multiple: f.kind === 'm2m',
          required,
          filters: s.filters,
          depends: s.depends,
          search: s.search,
          invalid: s.errors.length > 0,
          describedBy: s.errors.length ? `${inputId(key)}-error` : undefined,
          valueKey: f.slugField === 'slug' || f.slugField === 'name' ? f.slugField : 'id',
        }),
      );
    }
    case 'strings':
      if (f.formOptions) {
        const options = f.formOptions(rc);
        const offered = new Set(options.map(([v]) => v));
        const kept = s.values.filter((v) => v !== '' && !offered.has(v)).map((v): [string, string] => [v, v]);
        return row(select(key, [...options, ...kept], s, required, true));
      }
      return fieldRow(key, label, required, input(key, 'text', s, required), s, f.help ?? 'Comma-separated values.');
    case 'integers':
      return fieldRow(key, label, required, input(key, 'text', s, required), s, f.help ?? 'Comma-separated values.');
    default:
      // string, slug, mac, ipaddress, ipprefix
      return row(input(key, 'text', s, required, { maxlength: f.maxLength }));
  }
}

/** the control of one custom field (`cf_<name>`) */
export async function customFieldControl(rc: RequestContext, cf: CustomFieldDef, s: ControlState): Promise<Html> {
  const name = `cf_${cf.name}`;
  const label = cf.label || labelOf(cf.name);
  const required = cf.required;
  const row = (control: HtmlValue) => fieldRow(name, label, required, control, s);
  const limits = { min: cf.validation_minimum, max: cf.validation_maximum };
  switch (cf.type) {
    case 'longtext':
    case 'json':
      return row(textarea(name, s, required));
    case 'integer':
      return row(input(name, 'number', s, required, { step: 1, ...limits }));
    case 'decimal':
      return row(input(name, 'number', s, required, { step: 'any', ...limits }));
    case 'boolean':
      // three states (unset, true, false), as NetBox's custom boolean field
      return row(
        select(
          name,
          [
            ['true', 'Yes'],
            ['false', 'No'],
          ],
          s,
          required,
        ),
      );
    case 'date':
      return row(input(name, 'date', s, required));
    case 'datetime':
      return row(input(name, 'datetime-local', s, required));
    case 'url':
      return row(input(name, 'url', s, required));
    case 'select':
    case 'multiselect':
      return row(
        select(
          name,
          (cf.choices ?? []).map((c) => [c, c]),
          s,
          required,
          cf.type === 'multiselect',
        ),
      );
    case 'object':
    case 'multiobject': {
      const target = cf.object_type ? rc.app.registry.find(cf.object_type) : undefined;
      if (!target) return row(input(name, 'text', s, required));
      return row(
        await shownPicker(rc, {
          name,
          id: inputId(name),
          target,
          selected: s.values,
          multiple: cf.type === 'multiobject',
          required,
          search: s.search,
          invalid: s.errors.length > 0,
          describedBy: s.errors.length ? `${inputId(name)}-error` : undefined,
        }),
      );
    }
    default:
      return row(input(name, 'text', s, required));
  }
}
