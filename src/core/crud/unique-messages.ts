/**
 * Uniqueness errors in Django's words (NetBox 3.4 runs Django 4.1 and DRF 3.14):
 * - one unique field, checked by DRF's UniqueValidator: `<model verbose name> with this <Field
 *   label> already exists.` The label is capitalised as Django's capfirst does ("rack with this
 *   Asset tag already exists."); the model's verbose name stays as declared.
 *   NetBox 4 lowercased its fields' verbose names (`_('asset tag')`), so the 4.4 dialect words it
 *   "rack with this asset tag already exists.": the label with its first letter lowered, unless it
 *   opens with an acronym ("VLAN ID", "MAC address").
 * - a unique constraint over fields, checked by Model.validate_constraints ->
 *   unique_error_message: `<Model verbose name capfirst> with this <Label1 capfirst>, <Label2
 *   capfirst> and <Label3 capfirst> already exists.` (labels joined by get_text_list).
 */
import type { Dialect } from '../model/dialect.js';
import type { FieldDef, ModelDef, UniqueTogether } from '../model/types.js';

/** Django's capfirst: the first character upper-cased, the rest untouched */
const capfirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** a field's label: its declared label, else its name with spaces (Django's default verbose name) */
const fieldLabel = (key: string, f: FieldDef | undefined) => f?.label ?? key.replace(/_/g, ' ');

/** Django's get_text_list(items, 'and'): "a", "a and b", "a, b and c" */
function textList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** NetBox 4's lowercase verbose names: "Asset tag" -> "asset tag", "Part ID" -> "part ID", "MAC address" kept */
const lowerfirst = (s: string) => (/^[A-Z]{2}/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));

export function uniqueFieldMessage(model: ModelDef, key: string, dialect: Dialect = '3.4'): string {
  const own = model.fields[key]?.uniqueMessage;
  if (own) return own;
  const label = fieldLabel(key, model.fields[key]);
  return `${model.verboseName} with this ${dialect === '4.4' ? lowerfirst(label) : capfirst(label)} already exists.`;
}

export function uniqueTogetherMessage(model: ModelDef, u: UniqueTogether): string {
  if (u.message) return u.message;
  const labels = u.fields.map((k) => capfirst(fieldLabel(k, model.fields[k])));
  return `${capfirst(model.verboseName)} with this ${textList(labels)} already exists.`;
}
