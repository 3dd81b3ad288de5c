import { defineChoices } from '../../core/model/choices.js';

export const CustomFieldType = defineChoices([
  ['text', 'Text'],
  ['longtext', 'Text (long)'],
  ['integer', 'Integer'],
  ['decimal', 'Decimal'],
  ['boolean', 'Boolean (true/false)'],
  ['date', 'Date'],
  ['url', 'URL'],
  ['json', 'JSON'],
  ['select', 'Selection'],
  ['multiselect', 'Multiple selection'],
  ['object', 'Object'],
  ['multiobject', 'Multiple objects'],
]);

export const CustomFieldFilterLogic = defineChoices([
  ['disabled', 'Disabled'],
  ['loose', 'Loose'],
  ['exact', 'Exact'],
]);

export const CustomFieldVisibility = defineChoices([
  ['read-write', 'Read/Write'],
  ['read-only', 'Read-only'],
  ['hidden', 'Hidden'],
]);

export const ObjectChangeAction = defineChoices([
  ['create', 'Created'],
  ['update', 'Updated'],
  ['delete', 'Deleted'],
]);

/** verbose app names, for content type display ("DCIM | site") */
export const APP_LABELS: Record<string, string> = {
  circuits: 'Circuits',
  dcim: 'DCIM',
  extras: 'Extras',
  ipam: 'IPAM',
  tenancy: 'Tenancy',
  users: 'Users',
  virtualization: 'Virtualization',
};

export const JournalEntryKind = defineChoices([
  ['info', 'Info'],
  ['success', 'Success'],
  ['warning', 'Warning'],
  ['danger', 'Danger'],
]);

/** NetBox 3.7 CustomLinkButtonClassChoices: the button colours, and `ghost-dark` (a plain link) */
export const CustomLinkButtonClass = defineChoices([
  ['outline-dark', 'Default'],
  ['blue', 'Blue'],
  ['indigo', 'Indigo'],
  ['purple', 'Purple'],
  ['pink', 'Pink'],
  ['red', 'Red'],
  ['orange', 'Orange'],
  ['yellow', 'Yellow'],
  ['green', 'Green'],
  ['teal', 'Teal'],
  ['cyan', 'Cyan'],
  ['gray', 'Gray'],
  ['black', 'Black'],
  ['white', 'White'],
  ['ghost-dark', 'Link'],
]);
