/**
 * Custom fields (reference 3.6): definitions whose values every model with custom fields stores
 * in its `custom_field_data` column; validated in core/crud/custom-field-input.ts.
 */
import { contentTypeIdFilter, contentTypesFilters, objectTypesFilters } from './content-type-filters.js';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description } from '../fields.js';
import { CustomFieldFilterLogic, CustomFieldType, CustomFieldVisibility } from './choices.js';

const DATA_TYPES: Record<string, string> = {
  text: 'string',
  longtext: 'string',
  url: 'string',
  select: 'string',
  date: 'string',
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'boolean',
  json: 'object',
  object: 'object',
  multiselect: 'array',
  multiobject: 'array',
};

/**
 * The choices of a selection field: inline (NetBox 3.4 `choices`) or a set (NetBox 3.6
 * `choice_set`), exactly one of them. Both stay writable so 3.4 and 3.6 clients work unchanged;
 * inline choices are not turned into a hidden set, which would leave sets nobody named to clean up.
 */
function choiceErrors(type: string, choices: string[] | null, choiceSet: unknown): Record<string, string> {
  const inline = !!choices && choices.length > 0;
  if (type !== 'select' && type !== 'multiselect') {
    if (choiceSet != null) return { choice_set: 'Choices may be set only on selection fields.' };
    return inline ? { choices: 'Choices may be set only on selection fields.' } : {};
  }
  if (inline && choiceSet != null)
    return { choice_set: 'Give the choices inline (choices) or as a set (choice_set), not both.' };
  // under `choices`, where NetBox 3.4 clients look for it
  if (!inline && choiceSet == null)
    return { choices: 'Selection fields must specify at least one choice, or a set of choices (choice_set).' };
  return {};
}

export const customField = defineModel({
  name: 'extras.customfield',
  path: 'custom-fields',
  verboseName: 'custom field',
  fields: {
    content_types: { kind: 'strings', required: true },
    type: { kind: 'choice', choices: CustomFieldType, default: 'text' },
    object_type: { kind: 'string', maxLength: 100, nullable: true },
    data_type: { kind: 'computed', shape: { type: 'string' } },
    name: {
      kind: 'string',
      required: true,
      maxLength: 50,
      unique: { ci: true },
      pattern: { regex: /^[a-z0-9_]+$/i, message: 'Only alphanumeric characters and underscores are allowed.' },
    },
    label: { kind: 'string', maxLength: 50 },
    group_name: { kind: 'string', maxLength: 50 },
    description: description(),
    required: { kind: 'boolean', default: false },
    // NetBox 4.1: values must differ between objects (stored and shown in 4.4; not enforced here)
    unique: { kind: 'boolean', default: false, label: 'must be unique', dialect: '4.4' },
    search_weight: { kind: 'integer', default: 1000, min: 0, max: 32767 },
    filter_logic: { kind: 'choice', choices: CustomFieldFilterLogic, default: 'loose' },
    ui_visibility: { kind: 'choice', choices: CustomFieldVisibility, default: 'read-write' },
    default: { kind: 'json', nullable: true },
    weight: { kind: 'integer', default: 100, min: 0, max: 32767 },
    validation_minimum: { kind: 'integer', nullable: true },
    validation_maximum: { kind: 'integer', nullable: true },
    validation_regex: { kind: 'string', maxLength: 500 },
    // NetBox 3.4: the choices inline; 3.6: a choice set (custom-field-choice-set.model.ts). A
    // selection field takes one or the other (see validate)
    choices: { kind: 'strings', nullable: true },
    choice_set: {
      kind: 'fk',
      to: 'extras.customfieldchoiceset',
      nullable: true,
      onDelete: 'protect',
      relatedName: 'choices_for',
    },
    // NetBox 4.1: query parameters narrowing an object field's choices (a JSON object); 4.4 only
    related_object_filter: { kind: 'json', nullable: true, dialect: '4.4' },
    // NetBox 4.0, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  tags: false,
  customFields: false,
  filters: { ...contentTypesFilters },
  hooks: {
    async validate({ rc, data, before }) {
      const errors: Record<string, string[]> = {};
      const add = (k: string, m: string) => (errors[k] ??= []).push(m);
      if (before && before.type !== data.type) add('type', 'Changing the type of custom fields is not supported.');
      const cts = (data.content_types as string[]) ?? [];
      if (cts.length === 0) add('content_types', 'This list may not be empty.');
      for (const ct of cts) {
        const m = rc.app.registry.find(ct);
        if (!m?.customFields) add('content_types', `Invalid content type: ${ct}`);
      }
      const type = data.type as string;
      if (type === 'object' || type === 'multiobject') {
        if (!data.object_type) add('object_type', 'Object fields must define an object type.');
        else if (!rc.app.registry.find(data.object_type as string))
          add('object_type', `Invalid content type: ${data.object_type}`);
      } else if (data.object_type) add('object_type', `${type} fields may not define an object type.`);
      // NetBox 4.1: uniqueness means nothing for a yes/no value; a related object filter only narrows
      // an object field's choices, by query parameters (a JSON object)
      if (data.unique && type === 'boolean') add('unique', 'A boolean custom field cannot require unique values.');
      const filter = data.related_object_filter;
      if (filter != null) {
        if (type !== 'object' && type !== 'multiobject')
          add('related_object_filter', 'Only object fields take a related object filter.');
        else if (typeof filter !== 'object' || Array.isArray(filter))
          add('related_object_filter', 'The related object filter must map attributes to values (a JSON object).');
      }
      for (const [k, m] of Object.entries(choiceErrors(type, data.choices as string[] | null, data.choice_set_id)))
        add(k, m);
      if (data.validation_regex) {
        try {
          new RegExp(data.validation_regex as string);
        } catch {
          add('validation_regex', 'Invalid regular expression.');
        }
      }
      if (
        data.validation_minimum != null &&
        data.validation_maximum != null &&
        (data.validation_minimum as number) > (data.validation_maximum as number)
      ) {
        add('validation_maximum', 'Maximum value must be greater than or equal to the minimum value.');
      }
      return errors;
    },
    represent(_rc, rows, out) {
      rows.forEach((row, i) => {
        if ('data_type' in out[i]!) out[i]!.data_type = DATA_TYPES[row.type as string] ?? 'string';
      });
    },
  },
  ui: {
    columns: ['name', 'content_types', 'label', 'group_name', 'type', 'required', 'description'],
    clone: [
      'content_types',
      'type',
      'object_type',
      'group_name',
      'description',
      'required',
      'search_weight',
      'filter_logic',
      'default',
      'weight',
      'validation_minimum',
      'validation_maximum',
      'validation_regex',
      'choice_set',
      'ui_visibility',
    ],
    groups: [
      {
        title: 'Custom Field',
        fields: [
          'content_types',
          'name',
          'label',
          'group_name',
          'description',
          'type',
          'required',
          'unique',
          'default',
        ],
      },
      { title: 'Related Object', fields: ['object_type', 'related_object_filter'] },
      { title: 'Choices', fields: ['choice_set', 'choices'] },
      { title: 'Validation', fields: ['validation_minimum', 'validation_maximum', 'validation_regex'] },
      { title: 'Behavior', fields: ['search_weight', 'filter_logic', 'ui_visibility', 'weight'] },
    ],
  },
  brief: ['name'],
  netbox44: {
    // NetBox 4.0 renamed both (content types became object types)
    renamed: { content_types: 'object_types', object_type: 'related_object_type' },
    // NetBox 4.0's filters (extras/filtersets.py); `object_type` filters by the related object
    // type in 3.4 requests, by the object types in 4.4 ones
    filters: { ...objectTypesFilters, related_object_type_id: contentTypeIdFilter('object_type') },
  },
  ordering: ['group_name', 'weight', 'name'],
  search: ['name', 'label', 'description'],
});
