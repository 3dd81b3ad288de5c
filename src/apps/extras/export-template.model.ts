/**
 * Export templates (NetBox 3.7 extras.ExportTemplate): Jinja2 rendered over a filtered list of
 * objects of the chosen types when a list is asked for with `?export=<name>`
 * (core/templates/export-list.ts). The template code may come from a data file (synced data).
 */
import { defineModel } from '../../core/model/define-model.js';
import { description } from '../fields.js';
import { contentTypesFilters, objectTypesFilters } from './content-type-filters.js';
import { contentTypesField, validateContentTypes } from './template-content-types.js';
import {
  prepareSyncedData,
  registerSyncedData,
  syncedDataFields,
  syncedDataFilters,
  validateSyncedData,
} from '../core/synced-data.js';

const SYNCED = registerSyncedData('extras.exporttemplate', { target: 'template_code', kind: 'text' });

export const exportTemplate = defineModel({
  name: 'extras.exporttemplate',
  path: 'export-templates',
  verboseName: 'export template',
  fields: {
    content_types: contentTypesField(),
    // NetBox 3.7: not unique
    name: { kind: 'string', required: true, maxLength: 100 },
    description: description(),
    template_code: {
      kind: 'text',
      required: true,
      help: 'Jinja2 template code. The list of objects being exported is passed as a context variable named queryset.',
    },
    mime_type: { kind: 'string', maxLength: 50, label: 'MIME type', help: 'Defaults to text/plain; charset=utf-8' },
    // NetBox 4.3: the download's name (else netbox_<objects>), shown in the 4.4 dialect only
    file_name: { kind: 'string', maxLength: 200, help: 'Filename to give to the rendered export file', dialect: '4.4' },
    file_extension: { kind: 'string', maxLength: 15, help: 'Extension to append to the rendered filename' },
    as_attachment: { kind: 'boolean', default: true, help: 'Download file as attachment' },
    // NetBox 4.3: the Jinja2 environment's keyword arguments, as config templates have them (4.4 only)
    environment_params: {
      kind: 'json',
      nullable: true,
      default: {},
      label: 'environment parameters',
      dialect: '4.4',
    },
    ...syncedDataFields(),
  },
  tags: false,
  customFields: false,
  filters: { ...contentTypesFilters, ...syncedDataFilters() },
  hooks: {
    async validate(args) {
      const errors = { ...((await validateContentTypes({ ...args })) ?? {}) };
      // NetBox 3.7 ExportTemplate.clean(): "table" names the UI's own table export
      if (String(args.data.name ?? '').toLowerCase() === 'table')
        errors.name = [`"${String(args.data.name)}" is a reserved name. Please choose a different name.`];
      return { ...errors, ...(await validateSyncedData(SYNCED, args)) };
    },
    prepare: (args) => prepareSyncedData(SYNCED, args),
  },
  ui: {
    columns: ['name', 'content_types', 'description', 'mime_type', 'file_extension', 'as_attachment'],
    clone: ['content_types', 'template_code', 'mime_type', 'file_extension', 'as_attachment'],
    groups: [
      { title: 'Export Template', fields: ['name', 'content_types', 'description', 'template_code'] },
      { title: 'Data Source', fields: ['data_source', 'data_file', 'auto_sync_enabled'] },
      { title: 'Rendering', fields: ['mime_type', 'file_extension', 'as_attachment'] },
    ],
    pickerFilters: { data_file: { source_id: 'data_source' } },
  },
  brief: ['name'],
  // NetBox 4.0: content types became object types
  netbox44: { renamed: { content_types: 'object_types' }, filters: objectTypesFilters },
  ordering: ['name'],
  search: ['name', 'description'],
});
