/**
 * The add and edit forms' values, both ways: the initial values of a form (an add form's query
 * string and the fields' defaults, an edit form's object as the REST API represents it), and a
 * posted form turned into the API body the REST write path takes. Values are kept as the browser
 * sends them (lists of strings per input name), so a form that comes back shows what was typed.
 */
import { errorLines } from '../error-lines.js';
import type { CustomFieldDef } from '../../core/context.js';
import type { FieldDef, ModelDef, Row } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import { type ControlState, isRangeList } from '../components/form-fields.js';
import { flat } from './object-head.js';
import type { Query } from './page-shell.js';

export type FormValues = Map<string, string[]>;
export type FormErrors = Record<string, string[]>;

/**
 * What one control of a form shows: its values and messages, and for a picker the REST filters it
 * takes from other fields of the same form (ModelUi.pickerFilters) and its typed search
 */
export function controlState(
  pickerFilters: Record<string, Record<string, string>>,
  values: FormValues,
  errors: FormErrors,
  name: string,
): ControlState {
  const filterOf = pickerFilters[name] ?? {};
  const filters: Record<string, string> = {};
  for (const [param, other] of Object.entries(filterOf)) filters[param] = values.get(other)?.[0] ?? '';
  return {
    values: values.get(name) ?? [],
    errors: errors[name] ?? [],
    filters,
    depends: Object.keys(filterOf).length ? filterOf : undefined,
    search: values.get(`${name}__search`)?.[0] || undefined,
  };
}

/** an add form's values: its defaults, then what the query string says (Clone, links) */
export function initialFromQuery(
  model: ModelDef,
  formFields: string[],
  cfs: CustomFieldDef[],
  query: Query,
): FormValues {
  const out: FormValues = new Map();
  for (const key of formFields) {
    const f = model.fields[key]!;
    const given = query.get(key);
    if (given) out.set(key, given);
    else if (f.default !== undefined && f.default !== null && typeof f.default !== 'function')
      out.set(key, valueStrings(f, f.default));
  }
  for (const cf of cfs) {
    const given = query.get(`cf_${cf.name}`);
    if (given) out.set(`cf_${cf.name}`, given);
    else if (cf.default !== null && cf.default !== undefined) out.set(`cf_${cf.name}`, cfStrings(cf, cf.default));
  }
  if (model.tags && query.get('tags')) out.set('tags', query.get('tags')!);
  return out;
}

/** an edit form's values: the object's representation, as inputs that write it back */
export function initialFromObject(
  model: ModelDef,
  formFields: string[],
  cfs: CustomFieldDef[],
  obj: Represented,
): FormValues {
  const out: FormValues = new Map();
  for (const key of formFields) out.set(key, valueStrings(model.fields[key]!, obj[key]));
  const data = (obj.custom_fields ?? {}) as Represented;
  for (const cf of cfs) out.set(`cf_${cf.name}`, cfStrings(cf, data[cf.name]));
  if (model.tags) out.set('tags', flat(obj.tags));
  return out;
}

function valueStrings(f: FieldDef, v: unknown): string[] {
  if (v === null || v === undefined) return [];
  switch (f.kind) {
    case 'json':
      if (isRangeList(f) && Array.isArray(v))
        return [
          v
            .map((r) => (Array.isArray(r) && r[0] !== r[1] ? `${r[0]}-${r[1]}` : String((r as unknown[])[0])))
            .join(', '),
        ];
      return [JSON.stringify(v, null, 2)];
    case 'strings':
      if (f.formOptions) return Array.isArray(v) ? v.map(String) : [String(v)];
      return [Array.isArray(v) ? v.join(', ') : String(v)];
    case 'integers':
      return [Array.isArray(v) ? v.join(', ') : String(v)];
    case 'datetime':
      return [String(v).slice(0, 16)];
    case 'password':
      return [];
    default:
      return flat(v);
  }
}

function cfStrings(cf: CustomFieldDef, v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (cf.type === 'json') return [JSON.stringify(v, null, 2)];
  if (cf.type === 'datetime') return [String(v).slice(0, 16)];
  return flat(v);
}

/** a number when the text is one, else the text (the API's own validation then words the error) */
function numberOr(text: string): number | string {
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

function fieldValue(key: string, f: FieldDef, vs: string[], errors: FormErrors): unknown {
  const v = vs[0] ?? '';
  switch (f.kind) {
    case 'boolean':
      return vs.includes('true');
    case 'm2m': {
      const chosen = vs.filter((x) => x !== '');
      return f.slugField ? chosen : chosen.map(numberOr);
    }
    case 'strings':
      if (f.formOptions) return vs.filter((x) => x !== '');
      return v.trim() === '' ? [] : v.split(',').map((s) => s.trim());
    case 'integers':
      return v.trim() === '' ? [] : v.split(',').map((s) => numberOr(s.trim()));
    case 'json':
      if (isRangeList(f)) return rangesOf(key, v, errors);
      if (v.trim() === '') return null;
      try {
        return JSON.parse(v);
      } catch {
        errors[key] = ['Enter a valid JSON.'];
        return undefined;
      }
    default:
      break;
  }
  if (v === '') {
    if (f.nullable || f.kind === 'fk') return null;
    if (f.kind === 'choice') return f.blank ? '' : null;
    return f.kind === 'integer' || f.kind === 'decimal' ? null : '';
  }
  if (f.kind === 'integer' || f.kind === 'decimal' || f.kind === 'fk') return numberOr(v);
  return v;
}

/** `1-99, 200` as `[[1, 99], [200, 200]]`; a part that is no number or range is the field's error */
function rangesOf(key: string, text: string, errors: FormErrors): unknown {
  const out: number[][] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const m = /^(\d{1,9})\s*(?:-\s*(\d{1,9}))?$/.exec(part);
    if (!m) {
      errors[key] = [`"${part}" is no range: enter ranges such as 1-99, 200-300.`];
      return undefined;
    }
    out.push([Number(m[1]), Number(m[2] ?? m[1])]);
  }
  return out;
}

function cfValue(cf: CustomFieldDef, vs: string[], name: string, errors: FormErrors): unknown {
  const v = vs[0] ?? '';
  switch (cf.type) {
    case 'multiselect':
      return vs.filter((x) => x !== '');
    case 'multiobject':
      return vs.filter((x) => x !== '').map(numberOr);
    default:
      break;
  }
  if (v === '') return null;
  switch (cf.type) {
    case 'integer':
    case 'decimal':
    case 'object':
      return numberOr(v);
    case 'boolean':
      return v === 'true' ? true : v === 'false' ? false : v;
    case 'json':
      try {
        return JSON.parse(v);
      } catch {
        errors[name] = ['Enter a valid JSON.'];
        return undefined;
      }
    default:
      return v;
  }
}

/** a control's values as compared: non-empty, newlines as a browser does not post them, in order */
function comparable(vs: string[] | undefined): string {
  return (vs ?? [])
    .map((v) => v.replace(/\r\n/g, '\n').trim())
    .filter((v) => v !== '')
    .sort()
    .join('\u0000');
}

/**
 * A posted form as the API body: the form's own fields only (anything else posted is ignored). An
 * add form leaves out what was left empty, so the model's defaults and "required" apply; an edit
 * form sends the fields whose value differs from `before` (the object's, initialFromObject), a
 * PATCH of what the user changed, and never a blank password. Sending only what changed matters
 * where two fields say one thing in the two dialects (a prefix's `site` and its scope, a VLAN
 * group's `min_vid` and its `vid_ranges`): the model takes the one written, so an untouched one on
 * the form must not undo an edit of the other (apps/dcim/scope.ts).
 */
export function bodyFromForm(
  model: ModelDef,
  formFields: string[],
  cfs: CustomFieldDef[],
  values: FormValues,
  mode: 'create' | 'update',
  before?: FormValues,
): { body: Row; errors: FormErrors } {
  const body: Row = {};
  const errors: FormErrors = {};
  const blank = (vs: string[] | undefined) => !vs || vs.every((v) => v.trim() === '');
  for (const key of formFields) {
    const f = model.fields[key]!;
    const vs = values.get(key) ?? [];
    if (f.kind === 'password' && blank(vs)) continue;
    if (mode === 'create' && f.kind !== 'boolean' && blank(vs)) continue;
    if (mode === 'update' && before && comparable(vs) === comparable(before.get(key))) continue;
    const v = fieldValue(key, f, vs, errors);
    if (v !== undefined) body[key] = v;
  }
  const custom: Row = {};
  for (const cf of cfs) {
    const name = `cf_${cf.name}`;
    const vs = values.get(name) ?? [];
    if (mode === 'create' && blank(vs)) continue;
    const v = cfValue(cf, vs, name, errors);
    if (v !== undefined) custom[cf.name] = v;
  }
  if (Object.keys(custom).length) body.custom_fields = custom;
  if (model.tags) body.tags = (values.get('tags') ?? []).filter((v) => v !== '').map(numberOr);
  return { body, errors };
}

/** an API 400 body's messages per input name (`custom_fields` errors name no input: they go to the top) */
export function errorsByInput(apiErrors: FormErrors, names: Set<string>): { fields: FormErrors; top: string[] } {
  const fields: FormErrors = {};
  const top: string[] = [];
  for (const [k, ms] of Object.entries(apiErrors)) {
    if (names.has(k)) fields[k] = ms;
    else top.push(...(k === '__all__' ? ms : ms.map((m) => `${k}: ${m}`)));
  }
  return { fields, top };
}

/** a 400 body as messages per field; what names no field goes under `__all__` */
export function fieldErrors(body: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body)) {
      const key = k === 'non_field_errors' || k === 'detail' ? '__all__' : k;
      (out[key] ??= []).push(...errorLines(v));
    }
  } else (out.__all__ ??= []).push(...errorLines(body));
  return out;
}
