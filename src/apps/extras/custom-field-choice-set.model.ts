/**
 * Custom field choice sets (NetBox 3.6): the choices a selection custom field offers, as a list of
 * [value, label] pairs (`extra_choices`). A field names its set with `choice_set`
 * (custom-field.model.ts); a set in use cannot be deleted (the field's reference protects it).
 * Changing a set's choices leaves the values objects already store alone, as NetBox does: only
 * values written afterwards are checked against the new choices.
 *
 * NetBox also offers predefined base lists (IATA airport codes, ISO 3166 country codes,
 * UN/LOCODE location codes, tens of thousands of entries from third-party data): this service does
 * not ship them, and answers 400 when `base_choices` names one (the names stay in the choices, so
 * clients see what NetBox offers and why it is refused).
 */
import { sql } from 'kysely';
import { defineChoices } from '../../core/model/choices.js';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { description } from '../fields.js';

const CustomFieldChoiceSetBase = defineChoices([
  ['IATA', 'IATA (Airport codes)'],
  ['ISO_3166', 'ISO 3166 (Country codes)'],
  ['UN_LOCODE', 'UN/LOCODE (Location codes)'],
]);

const baseChoicesError = (v: unknown) =>
  v
    ? `The predefined ${String(v)} choices are not available in this service; list the choices in extra_choices instead.`
    : undefined;

/** NetBox 3.7's serializer: a list of two-item lists; its model: each item text of at most 100 characters. */
function extraChoicesError(v: unknown): string | undefined {
  if (!Array.isArray(v)) return `Expected a list of items but got type "${v === null ? 'null' : typeof v}".`;
  for (const [i, pair] of v.entries()) {
    if (!Array.isArray(pair) || pair.length !== 2) return `Item ${i}: a choice is a list of two items, [value, label].`;
    for (const s of pair) {
      if (typeof s !== 'string' || s === '') return `Item ${i}: value and label must be non-empty strings.`;
      if (s.length > 100) return `Item ${i}: Ensure this value has at most 100 characters (it has ${s.length}).`;
    }
  }
  const values = v.map((p) => (p as string[])[0]);
  const dup = values.find((x, i) => values.indexOf(x) !== i);
  return dup === undefined ? undefined : `Duplicate choice value: ${dup}.`;
}

/**
 * `choice` (NetBox 3.7 MultiValueCharFilter): sets offering any of the given values. NetBox
 * compares the values with its nested array in a way that rarely matches; here a value matches a
 * choice's value exactly.
 */
const choiceFilter: CustomFilter = {
  type: 'string',
  async build(values, _lookup, { alias }) {
    const pairs = sql.ref(`${alias}.extra_choices`);
    return sql`exists (select 1 from jsonb_array_elements(coalesce(${pairs}, '[]'::jsonb)) as pair where pair->>0 = any(${values}::text[]))`;
  },
};

export const customFieldChoiceSet = defineModel({
  name: 'extras.customfieldchoiceset',
  path: 'custom-field-choice-sets',
  verboseName: 'custom field choice set',
  schemaName: 'CustomFieldChoiceSet',
  fields: {
    name: { kind: 'string', required: true, maxLength: 100, unique: true },
    description: description(),
    base_choices: { kind: 'choice', choices: CustomFieldChoiceSetBase, blank: true, validate: baseChoicesError },
    extra_choices: { kind: 'json', required: true, validate: extraChoicesError },
    order_alphabetically: { kind: 'boolean', default: false },
    // a generated column: the pairs' count (no base lists are shipped)
    choices_count: { kind: 'computed', column: 'choices_count', shape: { type: 'integer' } },
  },
  tags: false,
  customFields: false,
  filters: { choice: choiceFilter },
  hooks: {
    validate({ data }) {
      // NetBox 3.7 CustomFieldChoiceSet.clean
      const extra = data.extra_choices as unknown[] | null;
      if (!data.base_choices && (!extra || extra.length === 0))
        return Promise.resolve({ __all__: ['Must define base or extra choices.'] });
      return Promise.resolve(undefined);
    },
    // NetBox 3.7 stores the choices sorted by value when they are to be ordered alphabetically
    prepare({ data, before }) {
      const alphabetical = (data.order_alphabetically ?? before?.order_alphabetically) === true;
      const extra = (data.extra_choices ?? (alphabetical ? before?.extra_choices : undefined)) as
        | string[][]
        | null
        | undefined;
      if (alphabetical && Array.isArray(extra))
        data.extra_choices = [...extra].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
    },
  },
  ui: {
    columns: ['name', 'base_choices', 'choices_count', 'description'],
    clone: ['extra_choices', 'order_alphabetically'],
    groups: [{ title: '', fields: ['name', 'description', 'base_choices', 'extra_choices', 'order_alphabetically'] }],
  },
  brief: ['name', 'choices_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'description', 'choices_count'] },
  ordering: ['name'],
  search: ['name', 'description'],
});
