/**
 * Config templates (NetBox 3.7 extras.ConfigTemplate): Jinja2 that renders a device's or virtual
 * machine's configuration from its config context and the object itself (render-config.routes.ts).
 * Devices, virtual machines, device roles and platforms point at one (`config_template`). The
 * template code may come from a data file (synced data).
 */
import { defineModel } from '../../core/model/define-model.js';
import { description } from '../fields.js';
import {
  prepareSyncedData,
  registerSyncedData,
  syncedDataFields,
  syncedDataFilters,
  validateSyncedData,
} from '../core/synced-data.js';

const SYNCED = registerSyncedData('extras.configtemplate', { target: 'template_code', kind: 'text' });

export const configTemplate = defineModel({
  name: 'extras.configtemplate',
  path: 'config-templates',
  verboseName: 'config template',
  fields: {
    name: { kind: 'string', required: true, maxLength: 100 },
    description: description(),
    // NetBox 3.7: keyword arguments of the Jinja2 environment. Stored and shown; the renderer here
    // (@huggingface/jinja) honours trim_blocks and lstrip_blocks only (render-config.routes.ts;
    // docs/data-sources.md, "Differences from NetBox").
    environment_params: { kind: 'json', nullable: true, default: {}, label: 'environment parameters' },
    template_code: { kind: 'text', required: true, help: 'Jinja2 template code.' },
    // NetBox 4.3: how a rendering is answered, as export templates have it; shown in 4.4 only
    mime_type: { kind: 'string', maxLength: 50, label: 'MIME type', dialect: '4.4' },
    file_name: { kind: 'string', maxLength: 200, help: 'Filename to give to the rendered file', dialect: '4.4' },
    file_extension: {
      kind: 'string',
      maxLength: 15,
      help: 'Extension to append to the rendered filename',
      dialect: '4.4',
    },
    as_attachment: { kind: 'boolean', default: true, help: 'Download file as attachment', dialect: '4.4' },
    ...syncedDataFields(),
  },
  filters: syncedDataFilters(),
  hooks: {
    validate: (args) => validateSyncedData(SYNCED, args),
    prepare: (args) => prepareSyncedData(SYNCED, args),
  },
  // NetBox 3.7 ConfigTemplate: tags, no custom fields
  customFields: false,
  ui: {
    columns: ['name', 'description'],
    groups: [
      { title: 'Config Template', fields: ['name', 'description', 'template_code'] },
      { title: 'Data Source', fields: ['data_source', 'data_file', 'auto_sync_enabled'] },
      { title: 'Rendering', fields: ['environment_params'] },
    ],
    pickerFilters: { data_file: { source_id: 'data_source' } },
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description'],
});
