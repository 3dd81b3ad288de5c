/**
 * `?export` with no value: every field of every matching object as CSV, in the columns NetBox's
 * import takes, so the file imports again: `id`, the model's writable fields by their API names,
 * related objects by name (a device type by its model: NetBox's import form names them so),
 * choices by value, lists comma-joined, `tags` by slug, and `cf_<name>` per custom field.
 * The cells are the values as they are (no formula guard): a guard would change them on import.
 */
import type { CustomFieldDef } from '../../core/context.js';
import type { FieldDef, ModelDef } from '../../core/model/types.js';

type Represented = Record<string, unknown>;

/** kinds no import takes: produced by the model, or written only */
const NOT_IMPORTED = new Set(['computed', 'generic', 'password']);

function importable(f: FieldDef): boolean {
  return !f.readOnly && !f.writeOnly && !f.notStored && !NOT_IMPORTED.has(f.kind) && f.dialect !== '4.4';
}

export function allDataColumns(model: ModelDef, customFields: CustomFieldDef[]): string[] {
  const fields = Object.entries(model.fields)
    .filter(([key, f]) => key !== 'id' && importable(f))
    .map(([key]) => key);
  return ['id', ...fields, ...(model.tags ? ['tags'] : []), ...customFields.map((cf) => `cf_${cf.name}`)];
}

/** a related object by the attribute NetBox's import finds it by */
function relatedName(o: Represented): string {
  return String(o.name ?? o.model ?? o.slug ?? o.display ?? o.id);
}

function value(key: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return v.map((x) => value(key, x)).join(',');
  if (typeof v === 'object') {
    const o = v as Represented;
    if ('value' in o && 'label' in o) return o.value === null ? '' : String(o.value);
    if (key === 'tags' && 'slug' in o) return String(o.slug);
    if ('id' in o && ('display' in o || 'url' in o)) return relatedName(o);
    return JSON.stringify(v);
  }
  return String(v);
}

export function allDataCell(row: Represented, key: string): string {
  if (key.startsWith('cf_')) {
    const v = (row.custom_fields as Represented | undefined)?.[key.slice(3)];
    // an object custom field names its object by id, as its import takes it
    if (v && typeof v === 'object' && !Array.isArray(v)) return String((v as Represented).id ?? JSON.stringify(v));
    if (Array.isArray(v))
      return v.map((x) => (x && typeof x === 'object' ? String((x as Represented).id) : String(x))).join(',');
    return value(key, v);
  }
  return value(key, row[key]);
}
