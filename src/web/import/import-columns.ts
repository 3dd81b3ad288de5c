/**
 * The columns a model's import takes, made from its declaration: every writable field under its
 * REST name, `id` (the row updates that object), `tags` (slugs) and `cf_<name>` per custom field.
 * An fk or m2m column names its objects by the attribute model-ui.ts resolves (`importRefs`); a
 * CSV cell, always text, is turned into the field's kind here (booleans, numbers, lists) so the
 * write path validates it as it would a JSON body.
 */
import type { CustomFieldDef } from '../../core/context.js';
import type { FieldDef, ModelDef } from '../../core/model/types.js';
import type { Registry } from '../../core/model/registry.js';
import { defaultImportAttr, uiOf } from '../model-ui.js';

interface RefSpec {
  /** the target model's identity */
  to: string;
  /** the target's attribute the column names it by (`id`: by id only) */
  attr: string;
  /** an m2m column: several names, comma-separated in CSV */
  many: boolean;
}

export interface ImportColumn {
  /** the column's name in the data */
  name: string;
  /** the key the REST body takes it under (a custom field's name within `custom_fields`) */
  key: string;
  required: boolean;
  field?: FieldDef;
  cf?: CustomFieldDef;
  ref?: RefSpec;
  /** a column that is no field of the model: it only narrows this other column's lookup, and is not written */
  narrows?: string;
}

const TAGS: FieldDef = { kind: 'm2m', to: 'extras.tag' };
const NOT_IMPORTED = new Set(['id', 'custom_fields', 'tags']);

function importable(key: string, f: FieldDef): boolean {
  if (NOT_IMPORTED.has(key) || f.readOnly || f.kind === 'computed' || f.kind === 'generic') return false;
  // the pages speak NetBox 3.4's dialect (model-pages/index.ts)
  return !f.dialect || f.dialect === '3.4';
}

/** the model's import columns by name, in declaration order: `id` first, custom fields last */
export function importColumns(registry: Registry, model: ModelDef, cfs: CustomFieldDef[]): Map<string, ImportColumn> {
  const refs = uiOf(registry, model).importRefs;
  const out = new Map<string, ImportColumn>();
  out.set('id', { name: 'id', key: 'id', required: false });
  const fields: Array<[string, FieldDef]> = Object.entries(model.fields).filter(([k, f]) => importable(k, f));
  if (model.tags && registry.find('extras.tag')) fields.push(['tags', TAGS]);
  for (const [key, f] of fields) {
    const ref =
      (f.kind === 'fk' || f.kind === 'm2m') && f.to
        ? { to: f.to, attr: key === 'tags' ? 'slug' : (refs[key] ?? 'id'), many: f.kind === 'm2m' }
        : undefined;
    out.set(key, { name: key, key, required: f.required === true && f.default === undefined, field: f, ref });
  }
  addNarrowingColumns(registry, model, out);
  for (const cf of cfs) out.set(`cf_${cf.name}`, { name: `cf_${cf.name}`, key: cf.name, required: cf.required, cf });
  return out;
}

/**
 * NetBox's import columns that only scope another column's lookup (a device's `manufacturer` for
 * its `device_type`, an interface's `site` for its `device`): each required fk of a related
 * column's target that the model does not have itself.
 */
function addNarrowingColumns(registry: Registry, model: ModelDef, out: Map<string, ImportColumn>): void {
  for (const col of [...out.values()]) {
    if (!col.ref || col.ref.many) continue;
    for (const [k, f] of Object.entries(registry.find(col.ref.to)?.fields ?? {})) {
      const to = f.kind === 'fk' && f.required && f.to ? registry.find(f.to) : undefined;
      if (!to || out.has(k) || k in model.fields) continue;
      out.set(k, {
        name: k,
        key: k,
        required: false,
        ref: { to: to.name, attr: defaultImportAttr(to), many: false },
        narrows: col.name,
      });
    }
  }
}

const TRUE = new Set(['true', 'yes', '1', 'on']);
const FALSE = new Set(['false', 'no', '0', 'off']);

function toBoolean(s: string): unknown {
  const v = s.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : s;
}

function toNumber(s: string, integer: boolean): unknown {
  const v = s.trim();
  const ok = integer ? /^-?\d+$/.test(v) : /^-?(\d+\.?\d*|\.\d+)$/.test(v);
  return ok ? Number(v) : s;
}

function toJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** a comma-separated CSV list (NetBox: `"a,b,c"`) */
function listOf(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** a CSV cell as the REST body takes this column (references are left as names, resolved later) */
export function fromCsv(col: ImportColumn, text: string): unknown {
  if (col.name === 'id') return toNumber(text, true);
  if (col.ref) return col.ref.many ? listOf(text) : text.trim();
  if (col.cf) return cfFromCsv(col.cf.type, text);
  switch (col.field?.kind) {
    case 'boolean':
      return toBoolean(text);
    case 'integer':
      return toNumber(text, true);
    case 'decimal':
      return toNumber(text, false);
    case 'strings':
      return listOf(text);
    case 'integers':
      return listOf(text).map((x) => toNumber(x, true));
    case 'json':
      return toJson(text);
    case 'choice':
      return col.field?.choices?.numeric ? toNumber(text, true) : text;
    default:
      return text;
  }
}

function cfFromCsv(type: string, text: string): unknown {
  switch (type) {
    case 'boolean':
      return toBoolean(text);
    case 'integer':
    case 'object':
      return toNumber(text, true);
    case 'decimal':
      return toNumber(text, false);
    case 'multiselect':
      return listOf(text);
    case 'multiobject':
      return listOf(text).map((x) => toNumber(x, true));
    case 'json':
      return toJson(text);
    default:
      return text;
  }
}

/** how to write the column, for the help table */
export function howToWrite(registry: Registry, col: ImportColumn): string {
  if (col.name === 'id') return 'the id of an existing object: the row updates it instead of creating one';
  if (col.cf) return `custom field (${col.cf.type})`;
  if (col.ref) {
    const target = registry.find(col.ref.to);
    const what = target?.verboseName ?? col.ref.to;
    const by = col.ref.attr === 'id' ? 'id' : `${col.ref.attr} (or id)`;
    if (col.narrows) return `${what} by ${by}: only to find the ${col.narrows}, not stored`;
    return col.ref.many ? `${what}s by ${by}, comma-separated` : `${what} by ${by}`;
  }
  const f = col.field!;
  if (f.choices) {
    const values = f.choices.choices.map((c) => String(c.value));
    return `one of: ${values.slice(0, 15).join(', ')}${values.length > 15 ? ', ...' : ''}`;
  }
  switch (f.kind) {
    case 'boolean':
      return 'true or false (yes/no, 1/0)';
    case 'strings':
    case 'integers':
      return 'a comma-separated list';
    case 'contenttype':
      return 'an object type, app.model (dcim.interface)';
    case 'json':
      return 'JSON';
    default:
      return KIND_WORDS[f.kind] ?? f.kind;
  }
}

const KIND_WORDS: Record<string, string> = {
  string: 'text',
  text: 'text',
  slug: 'a slug (letters, digits, - and _)',
  integer: 'a whole number',
  decimal: 'a number',
  date: 'a date, YYYY-MM-DD',
  datetime: 'a date and time, YYYY-MM-DD HH:MM',
  ipaddress: 'an address with its mask, 10.0.0.1/24',
  ipprefix: 'a prefix, 10.0.0.0/24',
  mac: 'a MAC address',
  password: 'a password',
};
