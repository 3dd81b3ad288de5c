/**
 * The bulk edit form's fields and what a post of it means. Every field starts blank, meaning
 * "leave as it is"; only what the user fills in (or ticks "Set null" for) is sent, as one PATCH body
 * for each selected object (NetBox's bulk edit: `_nullify`, `add_tags`, `remove_tags`).
 */
import type { CustomFieldDef } from '../../../core/context.js';
import { defineChoices } from '../../../core/model/choices.js';
import type { FieldDef, ModelDef, Row } from '../../../core/model/types.js';
import { bodyFromForm, type FormErrors, type FormValues } from '../form-input.js';

/**
 * What names one object among others, or is its own address, is never the same for many objects:
 * names, slugs, unique fields, addresses (NetBox's bulk edit forms leave them out too). A bulk
 * rename changes names.
 */
const IDENTITY = new Set(['name', 'slug', 'model', 'cid', 'vid']);
const IDENTITY_KINDS = new Set(['password', 'ipaddress', 'ipprefix', 'mac']);

export function bulkEditable(model: ModelDef, formFields: string[]): string[] {
  return formFields.filter((k) => {
    const f = model.fields[k]!;
    // nor a superuser's page-only field (FieldDef.pageWrite): superusers are made one at a time
    return !IDENTITY.has(k) && !IDENTITY_KINDS.has(f.kind) && !f.unique && !f.pageWrite;
  });
}

/** a field "Set null" can clear: one a create may leave out */
export function nullable(f: FieldDef): boolean {
  return f.required !== true && f.kind !== 'boolean';
}

/** a boolean on a bulk form has three states: unchanged, yes, no */
const YES_NO = defineChoices([
  ['true', 'Yes'],
  ['false', 'No'],
]);

/** the field as its bulk control shows it: never required, a boolean as a yes/no select */
export function bulkFieldDef(f: FieldDef): FieldDef {
  if (f.kind === 'boolean') return { ...f, kind: 'choice', choices: YES_NO, required: false, default: undefined };
  return { ...f, required: false };
}

/**
 * The PATCH body a posted bulk form means, or the errors per input. A value and "Set null" on the
 * same field contradict each other and are refused.
 */
export function bulkBody(
  model: ModelDef,
  fields: string[],
  cfs: CustomFieldDef[],
  values: FormValues,
): { body: Row; errors: FormErrors } {
  const nulls = new Set((values.get('_nullify') ?? []).filter((v) => v !== ''));
  const filled = (k: string) => (values.get(k) ?? []).some((v) => v.trim() !== '');
  const errors: FormErrors = {};
  const booleans = fields.filter((k) => model.fields[k]!.kind === 'boolean');
  const others = fields.filter((k) => model.fields[k]!.kind !== 'boolean');
  // blanks are left out as an add form leaves them out: what remains is what the user filled in
  const given = bodyFromForm(model, others, cfs, values, 'create');
  Object.assign(errors, given.errors);
  const body: Row = given.body;
  delete body.tags;
  for (const k of booleans) {
    const v = values.get(k)?.[0];
    if (v === 'true' || v === 'false') body[k] = v === 'true';
  }
  const nullFields = others.filter((k) => nulls.has(k) && nullable(model.fields[k]!));
  const nullCfs = cfs.filter((cf) => nulls.has(`cf_${cf.name}`) && !cf.required);
  for (const k of [...nullFields, ...nullCfs.map((cf) => `cf_${cf.name}`)])
    if (filled(k)) errors[k] = ['Either give a value or set it null, not both.'];
  // a blank value as an edit form posts it: null, or '' where the field stores no null
  const cleared = bodyFromForm(model, nullFields, [], new Map(), 'update').body;
  delete cleared.tags;
  Object.assign(body, cleared);
  if (nullCfs.length) {
    const custom = (body.custom_fields ?? {}) as Row;
    for (const cf of nullCfs) custom[cf.name] = null;
    body.custom_fields = custom;
  }
  for (const key of ['add_tags', 'remove_tags']) {
    const tags = (values.get(key) ?? []).filter((v) => v !== '');
    if (model.tags && tags.length) body[key] = tags.map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  }
  const message = values.get('changelog_message')?.[0]?.trim();
  if (message) body.changelog_message = message;
  return { body, errors };
}
