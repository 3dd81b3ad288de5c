/**
 * Config context profiles (NetBox 4.4): a named JSON Schema that config contexts of the profile
 * are to satisfy, its schema possibly synced from a data file (core/synced-data.ts). Served in the
 * 4.4 dialect only. A config context of a profile is checked against its schema when written.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { jsonSchemaError } from '../json-schema.js';
import {
  prepareSyncedData,
  registerSyncedData,
  syncedDataFields,
  syncedDataFilters,
  validateSyncedData,
} from '../core/synced-data.js';

// the schema may come from a YAML or JSON data file
const SYNCED = registerSyncedData('extras.configcontextprofile', { target: 'schema', kind: 'object' });

export const configContextProfile = defineModel({
  name: 'extras.configcontextprofile',
  path: 'config-context-profiles',
  verboseName: 'config context profile',
  dialect: '4.4',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    schema: {
      kind: 'json',
      nullable: true,
      validate: jsonSchemaError,
      help: 'A JSON schema specifying the structure of the context data for this profile',
    },
    comments: comments(),
    ...syncedDataFields(),
  },
  // NetBox 4.4's serializer shows tags but no custom fields
  customFields: false,
  filters: syncedDataFilters(),
  hooks: {
    validate: (args) => validateSyncedData(SYNCED, args),
    prepare: (args) => prepareSyncedData(SYNCED, args),
  },
  ui: {
    columns: ['name', 'description', 'data_source', 'data_synced'],
    clone: ['schema'],
    groups: [
      { title: 'Config Context Profile', fields: ['name', 'description'] },
      { title: 'Schema', fields: ['schema'] },
      { title: 'Data Source', fields: ['data_source', 'data_file', 'auto_sync_enabled'] },
    ],
    pickerFilters: { data_file: { source_id: 'data_source' } },
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
});
