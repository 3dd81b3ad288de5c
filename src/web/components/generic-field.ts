/**
 * The object half of a generic reference on a form (a type field and an id field: a prefix's
 * `scope_type` + `scope_id`, a MAC address's `assigned_object_type` + `assigned_object_id`): an
 * object picker of the type the form's type field names, under the id field's name, so the form
 * posts what the API takes. NetBox's forms do the same with a type select that reloads the object
 * field (its DynamicModelChoiceField follows the type; utilities/forms/mixins.py).
 *
 * Without JavaScript the picker lists the objects of the type the form was rendered with; after
 * choosing another type, "Show choices" posts the form back to itself (the `_picker` post, as a
 * large picker's Search) and it comes back with that type's objects, nothing written. With
 * JavaScript, inventory.js points the picker at the new type's REST list as the type changes
 * (`data-picker-types`, `data-picker-type-field`) and hides the button.
 */
import type { RequestContext } from '../../core/context.js';
import type { FieldDef, ModelDef } from '../../core/model/types.js';
import { attrs, html, type Html } from '../html.js';
import { type ControlState, fieldRow, inputId, labelOf } from './form-fields.js';
import { picker } from './picker.js';

/** a model's generic references whose two halves are both written: id field key -> its parts */
export function genericPairs(model: ModelDef): Map<string, { key: string; field: FieldDef; typeKey: string }> {
  const out = new Map<string, { key: string; field: FieldDef; typeKey: string }>();
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind !== 'generic' || !f.generic) continue;
    const type = model.fields[f.generic.type];
    const id = model.fields[f.generic.id];
    if (type?.kind === 'contenttype' && id && !type.readOnly && !id.readOnly)
      out.set(f.generic.id, { key, field: f, typeKey: f.generic.type });
  }
  return out;
}

/** the REST list of each type the reference may name, by type (`dcim.site` -> `/api/dcim/sites/`) */
function typePaths(rc: RequestContext, typeField: FieldDef): Record<string, string> {
  const out: Record<string, string> = {};
  const models = typeField.types
    ? typeField.types.flatMap((t) => rc.app.registry.find(t) ?? [])
    : rc.app.registry.all().filter((m) => !m.readOnly);
  for (const m of models) out[m.name] = `/api/${m.app}/${m.path}/`;
  return out;
}

/**
 * The id field's control: a picker of the chosen type's objects (`type`: the type field's value
 * on the form), or, with no type chosen or one the registry lacks, a select of the current id alone
 */
export async function genericObjectControl(
  rc: RequestContext,
  idKey: string,
  pair: { key: string; field: FieldDef; typeKey: string },
  typeField: FieldDef,
  type: string | undefined,
  s: ControlState,
): Promise<Html> {
  const paths = typePaths(rc, typeField);
  const target: ModelDef | undefined = type && paths[type] ? rc.app.registry.find(type) : undefined;
  const required = typeField.required === true;
  const id = inputId(idKey);
  const describedBy = s.errors.length ? `${id}-error` : undefined;
  const data = { 'data-picker-types': JSON.stringify(paths), 'data-picker-type-field': pair.typeKey };
  const control =
    (target &&
      (await picker(rc, {
        name: idKey,
        id,
        target,
        selected: s.values,
        required,
        search: s.search,
        invalid: s.errors.length > 0,
        describedBy,
        data,
      }))) ||
    html`<select${attrs({ id, name: idKey, required, 'aria-invalid': s.errors.length ? 'true' : null, 'aria-describedby': describedBy ?? null, ...data })}><option value="">---------</option>${s.values
      .filter((v) => v !== '')
      .map((v) => html`<option value="${v}" selected>${type ?? ''} ${v}</option>`)}</select>`;
  const refresh = html`<button type="submit" class="button small secondary generic-refresh" name="_picker" value="${idKey}" formnovalidate>Show choices</button>`;
  const help = `Choose the ${labelOf(pair.typeKey, typeField).toLowerCase()} first.`;
  return fieldRow(idKey, labelOf(pair.key, pair.field), required, html`${control} ${refresh}`, s, help);
}
