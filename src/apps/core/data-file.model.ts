/**
 * Data files (NetBox 3.7 core.DataFile): the files a data source's last sync found, read-only.
 * Written only by a sync (data-source-sync.ts). As NetBox's serializer, neither the list nor the
 * detail carries the content; code reads it with readDataFile() (data-file-content.ts).
 */
import type { CustomFilter } from '../../core/model/types.js';
import { defineModel } from '../../core/model/define-model.js';
import { BY_REQUEST_ACTIONS, byRequestCondition } from '../../core/query/filter-conditions.js';

/**
 * NetBox 3.7 gives data files the change-logged filters (ChangeLoggedModelFilterSet) although
 * syncs record no changes for them: the filters are accepted and match what the change log holds.
 */
const byRequestFilters: Record<string, CustomFilter> = Object.fromEntries(
  Object.keys(BY_REQUEST_ACTIONS).map((name) => [
    name,
    {
      type: 'string',
      build: async (values, _lookup, { model }) => byRequestCondition(model, name, values),
    } satisfies CustomFilter,
  ]),
);

export const dataFile = defineModel({
  name: 'core.datafile',
  path: 'data-files',
  verboseName: 'data file',
  fields: {
    source: { kind: 'fk', to: 'core.datasource', readOnly: true, onDelete: 'cascade', relatedName: 'datafiles' },
    path: { kind: 'string', maxLength: 1000, readOnly: true, help: "File path relative to the data source's root" },
    size: { kind: 'integer', readOnly: true, min: 0 },
    hash: { kind: 'string', maxLength: 64, readOnly: true, help: 'SHA256 hash of the file data' },
  },
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  filters: byRequestFilters,
  display: (row) => String(row.path),
  ui: { columns: ['source', 'path', 'size', 'last_updated'] },
  // NetBox 3.7 NestedDataFileSerializer
  brief: ['path'],
  ordering: ['source', 'path'],
  search: ['path'],
});
