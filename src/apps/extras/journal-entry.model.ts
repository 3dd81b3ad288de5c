/**
 * Journal entries (reference 3.6): notes on any object, through a generic relation; newest first.
 * `created_by` defaults to the caller.
 */
import { defineModel } from '../../core/model/define-model.js';
import { JournalEntryKind } from './choices.js';
import { objectTypeIdFilter } from './object-type-id-filter.js';
import { timeBoundFilter } from './time-bound-filter.js';

export const journalEntry = defineModel({
  name: 'extras.journalentry',
  path: 'journal-entries',
  verboseName: 'journal entry',
  verboseNamePlural: 'journal entries',
  fields: {
    assigned_object_type: { kind: 'contenttype', required: true },
    assigned_object_id: { kind: 'integer', required: true, min: 0 },
    assigned_object: { kind: 'generic', generic: { type: 'assigned_object_type', id: 'assigned_object_id' } },
    created_by: { kind: 'fk', to: 'users.user', nullable: true },
    kind: { kind: 'choice', choices: JournalEntryKind, default: 'info' },
    comments: { kind: 'text', required: true },
  },
  display: (row) =>
    `${String(row.created ?? '')
      .slice(0, 16)
      .replace('T', ' ')} (${JournalEntryKind.labels.get(row.kind as string) ?? row.kind})`,
  hooks: {
    prepare({ rc, data, before }) {
      if (!before && data.created_by_id == null) data.created_by_id = rc.user?.id ?? null;
    },
  },
  filters: {
    // NetBox 3.7's JournalEntryFilterSet: created after/before, the object's type by content type id
    created_after: timeBoundFilter('created', '>='),
    created_before: timeBoundFilter('created', '<='),
    assigned_object_type_id: objectTypeIdFilter('assigned_object_type', 'assigned_object_type_id'),
  },
  ui: {
    columns: ['created', 'created_by', 'assigned_object_type', 'assigned_object', 'kind', 'comments'],
    // NetBox's JournalEntryFilterForm: created after/before, created by and object type beside kind
    filters: [
      { name: 'created_after', label: 'Created after', input: 'datetime' },
      { name: 'created_before', label: 'Created before', input: 'datetime' },
      { name: 'assigned_object_type', label: 'Object type', input: 'objecttype' },
    ],
    groups: [{ title: '', fields: ['assigned_object_type', 'assigned_object_id', 'kind'] }],
  },
  brief: ['created'],
  ordering: ['-created', '-id'],
  search: ['comments'],
});
