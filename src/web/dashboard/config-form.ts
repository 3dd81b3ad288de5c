/**
 * A widget's form: its class (when adding), title, colour and width, then its class's config
 * fields under NetBox's `config-` prefix (DashboardWidgetAddView's ConfigForm(prefix='config')).
 * `readWidgetForm` checks a post as NetBox's forms do and answers the widget's new settings or
 * the messages per field; `widgetForm` shows either, with the values as typed.
 */
import { isPlainObject } from '../../core/crud/parse-field.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Registry } from '../../core/model/registry.js';
import { attrs, html, type Html, type HtmlValue } from '../html.js';
import { appLabel, capitalize } from '../labels.js';
import { hasPages } from '../model-pages/index.js';
import { GRID_COLUMNS } from './grid.js';
import { type ConfigField, WIDGET_CLASSES, WIDGET_COLORS, type WidgetClass } from './widget-classes.js';

export type FormValues = Map<string, string[]>;
export type FormErrors = Record<string, string[]>;

export interface WidgetSettings {
  title: string | null;
  color: string | null;
  w: number;
  config: Record<string, unknown>;
}

/** the object types a widget may name: every model with pages, by app and name */
function modelChoices(registry: Registry): Array<[string, string]> {
  return registry
    .all()
    .filter(hasPages)
    .map((m: ModelDef): [string, string] => [m.name, `${appLabel(m.app)} › ${capitalize(m.verboseNamePlural)}`])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

const inputName = (f: ConfigField) => `config-${f.name}`;

/** a stored config value as the form shows it */
function shownValues(f: ConfigField, v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (f.kind === 'models') return Array.isArray(v) ? v.map(String) : [];
  if (f.kind === 'json') return [JSON.stringify(v)];
  if (f.kind === 'bool') return v === true ? ['on'] : [];
  return [String(v)];
}

/** the form's values for a widget's current settings (or a class's defaults) */
export function formValuesOf(cls: WidgetClass, s: Partial<WidgetSettings>): FormValues {
  const out: FormValues = new Map([
    ['widget_class', [cls.name]],
    ['title', [s.title ?? '']],
    ['color', [s.color ?? '']],
    ['width', [String(s.w ?? cls.width)]],
  ]);
  const config = s.config ?? cls.defaultConfig;
  for (const f of cls.fields) out.set(inputName(f), shownValues(f, config[f.name]));
  return out;
}

const CHOICE_ERROR = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;

/** one config field's value from the post, or its message */
function readField(registry: Registry, f: ConfigField, raw: string[]): { value?: unknown; error?: string } {
  const given = raw.map((v) => v.trim()).filter((v) => v !== '');
  if (!given.length) return f.required && f.kind !== 'bool' ? { error: 'This field is required.' } : {};
  const first = given[0]!;
  switch (f.kind) {
    case 'models':
    case 'model': {
      const bad = given.find((v) => !registry.find(v.toLowerCase()) || !hasPages(registry.find(v.toLowerCase())!));
      if (bad) return { error: CHOICE_ERROR(bad) };
      const names = given.map((v) => v.toLowerCase());
      return { value: f.kind === 'model' ? names[0] : names };
    }
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(first);
      } catch {
        return { error: 'Enter a valid JSON.' };
      }
      if (!isPlainObject(parsed))
        return { error: 'Invalid format. Filters must be passed as a dictionary (a JSON object).' };
      return { value: parsed };
    }
    case 'int': {
      if (!/^-?\d{1,9}$/.test(first)) return { error: 'Enter a whole number.' };
      const n = Number(first);
      if (f.min !== undefined && n < f.min) return { error: `Ensure this value is greater than or equal to ${f.min}.` };
      if (f.max !== undefined && n > f.max) return { error: `Ensure this value is less than or equal to ${f.max}.` };
      return { value: n };
    }
    case 'choice':
      return f.choices?.some(([v]) => v === first) ? { value: first } : { error: CHOICE_ERROR(first) };
    case 'url': {
      const url = /^[a-z][a-z0-9+.-]*:/i.test(first) ? first : `https://${first}`;
      try {
        const u = new URL(url);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
        return { value: u.href };
      } catch {
        return { error: 'Enter a valid URL.' };
      }
    }
    case 'bool':
      return { value: true };
    default:
      return { value: first };
  }
}

/** A posted widget form: the settings, or the messages by input name. */
export function readWidgetForm(
  registry: Registry,
  cls: WidgetClass,
  values: FormValues,
): { settings: WidgetSettings; errors: null } | { settings: null; errors: FormErrors } {
  const errors: FormErrors = {};
  const one = (k: string) => (values.get(k)?.[0] ?? '').trim();
  const color = one('color');
  if (color && !(WIDGET_COLORS as readonly string[]).includes(color)) errors.color = [CHOICE_ERROR(color)];
  const width = one('width');
  const w = /^\d{1,2}$/.test(width) ? Number(width) : Number.NaN;
  if (!(w >= 1 && w <= GRID_COLUMNS)) errors.width = [`The width must be a whole number from 1 to ${GRID_COLUMNS}.`];
  const title = one('title');
  if (title.length > 100) errors.title = ['Ensure this value has at most 100 characters.'];
  const config: Record<string, unknown> = {};
  for (const f of cls.fields) {
    const r = readField(registry, f, values.get(inputName(f)) ?? []);
    if (r.error) errors[inputName(f)] = [r.error];
    else if (r.value !== undefined) config[f.name] = r.value;
    else if (f.kind === 'bool') config[f.name] = false;
  }
  if (Object.keys(errors).length) return { settings: null, errors };
  return { settings: { title: title || null, color: color || null, w, config }, errors: null };
}

function row(name: string, label: string, required: boolean, control: Html, errors: string[], help?: string): Html {
  const id = `id_${name}`;
  return html`<div class="field${errors.length ? ' invalid' : ''}">
  <label for="${id}">${label}${required ? html` <span class="required" aria-hidden="true">*</span>` : ''}</label>
  ${control}
  ${help ? html`<p class="muted">${help}</p>` : ''}
  ${errors.length ? html`<p class="field-error" id="${id}-error">${errors.join(' ')}</p>` : ''}
</div>`;
}

function controlAttrs(name: string, required: boolean, errors: string[]) {
  return {
    id: `id_${name}`,
    name,
    required,
    ...(errors.length ? { 'aria-invalid': 'true', 'aria-describedby': `id_${name}-error` } : {}),
  };
}

function select(
  name: string,
  choices: ReadonlyArray<readonly [string, string]>,
  chosen: string[],
  o: { required: boolean; multiple?: boolean; blank?: boolean },
  errors: string[],
): Html {
  const picked = new Set(chosen);
  return html`<select${attrs({ ...controlAttrs(name, o.required, errors), multiple: o.multiple ?? false, size: o.multiple ? 10 : null })}>${
    o.blank ? html`<option value="">---------</option>` : ''
  }${choices.map(([v, l]) => html`<option${attrs({ value: v, selected: picked.has(v) })}>${l}</option>`)}</select>`;
}

function configControl(registry: Registry, f: ConfigField, values: string[], errors: string[]): Html {
  const name = inputName(f);
  const required = f.required ?? false;
  const a = controlAttrs(name, required, errors);
  switch (f.kind) {
    case 'models':
      return select(name, modelChoices(registry), values, { required, multiple: true }, errors);
    case 'model':
      return select(name, modelChoices(registry), values, { required, blank: true }, errors);
    case 'choice':
      return select(name, f.choices ?? [], values, { required, blank: !required }, errors);
    case 'bool':
      return html`<input${attrs({ ...a, required: false, type: 'checkbox', value: 'on', checked: values.includes('on') })}>`;
    case 'int':
      return html`<input${attrs({ ...a, type: 'number', min: f.min, max: f.max, value: values[0] ?? '' })}>`;
    case 'url':
      return html`<input${attrs({ ...a, type: 'url', value: values[0] ?? '' })}>`;
    default:
      return html`<textarea${attrs({ ...a, rows: f.kind === 'json' ? 3 : 6 })}>${values[0] ?? ''}</textarea>`;
  }
}

/** a GET form choosing the class of a widget to add (its config fields follow the choice, without JavaScript) */
export function classChooser(cls: WidgetClass): Html {
  const choices = WIDGET_CLASSES.map((c) => [c.name, c.label] as const);
  return html`<form class="panel" method="get" action="/dashboard/widgets/add/">
${row('widget_class', 'Widget type', true, select('widget_class', choices, [cls.name], { required: true }, []), [], cls.description)}
<div class="actions"><button type="submit">Choose</button></div>
</form>`;
}

/** the fields of a widget form (the caller wraps them in its <form> with the CSRF field) */
export function widgetFormFields(
  registry: Registry,
  cls: WidgetClass,
  values: FormValues,
  errors: FormErrors,
): HtmlValue {
  const v = (k: string) => values.get(k) ?? [];
  const e = (k: string) => errors[k] ?? [];
  return html`<input type="hidden" name="widget_class" value="${cls.name}">
${row('title', 'Title', false, html`<input${attrs({ ...controlAttrs('title', false, e('title')), type: 'text', maxlength: 100, value: v('title')[0] ?? '' })}>`, e('title'))}
${row(
  'color',
  'Colour',
  false,
  select(
    'color',
    WIDGET_COLORS.map((c) => [c, capitalize(c)] as const),
    v('color'),
    { required: false, blank: true },
    e('color'),
  ),
  e('color'),
)}
${row('width', 'Width (columns of 12)', true, html`<input${attrs({ ...controlAttrs('width', true, e('width')), type: 'number', min: 1, max: GRID_COLUMNS, value: v('width')[0] ?? '' })}>`, e('width'))}
<fieldset><legend>${cls.label} settings</legend>
${cls.fields.map((f) => row(inputName(f), f.label, f.required ?? false, configControl(registry, f, v(inputName(f)), e(inputName(f))), e(inputName(f)), f.help))}
</fieldset>`;
}
