/**
 * `?export` with no value: every field of every matching object as CSV, in the columns NetBox's
 * import takes, so the file imports again: `id`, the model's writable fields by their API names,
 * related objects by the attribute NetBox 4.4's import forms find them by (the name, mostly; a
 * device type by its model, an address by its address, an interface's VLANs by VID),
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

/** NetBox 4.4's import forms find these related models by another attribute than the name */
const BY_TARGET: Record<string, string> = {
  'dcim.devicetype': 'model',
  'dcim.moduletype': 'model',
  'dcim.racktype': 'model',
  'ipam.ipaddress': 'address',
  'circuits.circuit': 'cid',
  'circuits.virtualcircuit': 'cid',
  'circuits.provideraccount': 'account',
  'users.user': 'username',
  'core.datafile': 'path',
};

/** ... and these fields of these models (an interface's VLANs by VID, its VRF by RD) */
const BY_FIELD: Record<string, string> = {
  'dcim.interface.vrf': 'rd',
  'virtualization.vminterface.vrf': 'rd',
  'ipam.prefix.vlan': 'vid',
  'circuits.virtualcircuittermination.interface': 'id',
};
const VLAN_BY_VID = new Set(['untagged_vlan', 'tagged_vlans', 'qinq_svlan']);

/** the attribute a model's import finds the objects of a field by */
function importAttribute(model: ModelDef, key: string): string | undefined {
  const field = model.fields[key];
  if (!field?.to) return undefined;
  if (VLAN_BY_VID.has(key)) return 'vid';
  return BY_FIELD[`${model.name}.${key}`] ?? BY_TARGET[field.to];
}

/** a related object by the attribute NetBox's import finds it by (its name, mostly) */
function relatedName(o: Represented, attribute: string | undefined): string {
  return String((attribute ? o[attribute] : undefined) ?? o.name ?? o.model ?? o.slug ?? o.display ?? o.id);
}

function value(key: string, v: unknown, attribute?: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return v.map((x) => value(key, x, attribute)).join(',');
  if (typeof v === 'object') {
    const o = v as Represented;
    if ('value' in o && 'label' in o) return o.value === null ? '' : String(o.value);
    if (key === 'tags' && 'slug' in o) return String(o.slug);
    if ('id' in o && ('display' in o || 'url' in o)) return relatedName(o, attribute);
    return JSON.stringify(v);
  }
  return String(v);
}

/** the cell of a column (allDataColumns) for a represented row */
export function allDataCell(model: ModelDef, row: Represented, key: string): string {
  if (key.startsWith('cf_')) {
    const v = (row.custom_fields as Represented | undefined)?.[key.slice(3)];
    // an object custom field names its object by id, as its import takes it
    if (v && typeof v === 'object' && !Array.isArray(v)) return String((v as Represented).id ?? JSON.stringify(v));
    if (Array.isArray(v))
      return v.map((x) => (x && typeof x === 'object' ? String((x as Represented).id) : String(x))).join(',');
    return value(key, v);
  }
  return value(key, row[key], importAttribute(model, key));
}
