/**
 * Data sources (NetBox 3.7 core.DataSource): a place files are copied from into data files
 * (POST .../sync/, data-source.routes.ts and data-source-sync.ts). NetBox offers local, git and
 * amazon-s3 backends; this service implements `local` only - a directory on the server - and
 * refuses the others with a 400 rather than store a source it could never sync.
 *
 * A local source lets the service read a directory with its own rights, so creating one, or
 * pointing one elsewhere, takes a superuser or a holder of `core.sync_datasource` (besides the
 * add/change permission), and DATA_SOURCE_ROOTS can confine sources to a few directories.
 */
import { sql } from 'kysely';
import { hasPermission } from '../../core/auth/permissions.js';
import { Errors } from '../../core/errors.js';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description } from '../fields.js';
import { DataSourceStatus, DataSourceType } from './choices.js';
import { SYNC_INTERVALS } from './netbox4-choices.js';
import { localDirectory, outsideRootsError } from './source-path.js';

export const dataSource = defineModel({
  name: 'core.datasource',
  path: 'data-sources',
  verboseName: 'data source',
  fields: {
    name: { kind: 'string', required: true, maxLength: 100, unique: true },
    type: { kind: 'choice', required: true, choices: DataSourceType },
    source_url: { kind: 'string', required: true, maxLength: 200, label: 'URL' },
    enabled: { kind: 'boolean', default: true },
    status: { kind: 'choice', choices: DataSourceStatus, readOnly: true },
    description: description(),
    comments: comments(),
    // NetBox 4.1: minutes between automatic syncs (none here run by themselves); shown in 4.4 only
    sync_interval: {
      kind: 'integer',
      nullable: true,
      validate: (v) => (v == null || SYNC_INTERVALS.includes(Number(v)) ? undefined : `"${v}" is not a valid choice.`),
      dialect: '4.4',
    },
    parameters: {
      kind: 'json',
      nullable: true,
      validate: (v) =>
        v !== null && (typeof v !== 'object' || Array.isArray(v)) ? 'Parameters must be a JSON object.' : undefined,
    },
    ignore_rules: { kind: 'text', help: 'Patterns (one per line) matching files to ignore when syncing' },
    // not in NetBox 3.7's serializer (its model has it): when the last sync completed
    last_synced: { kind: 'datetime', nullable: true, readOnly: true },
  },
  counts: { file_count: { model: 'core.datafile', via: 'source' } },
  hooks: {
    async validate({ rc, data, before }): Promise<Record<string, string[]> | undefined> {
      if (data.type !== 'local') {
        return {
          type: [
            `Data sources of type "${String(data.type)}" are not supported by this service: only "local" (a directory on the server) can be synced.`,
          ],
        };
      }
      const named = localDirectory(String(data.source_url ?? ''));
      if ('error' in named) return { source_url: [named.error] };
      const outside = outsideRootsError(rc.app.config.dataSources.roots, named.dir);
      if (outside) return { source_url: [outside] };
      // a new source, or one pointed elsewhere, decides what the service reads from its disk
      const repointed = !before || before.source_url !== data.source_url || before.type !== data.type;
      if (repointed && !(await hasPermission(rc, rc.app.registry.get('core.datasource'), 'sync'))) {
        throw Errors.permissionDenied(
          'Only superusers and users allowed to synchronize data sources (core.sync_datasource) may create a data source or change its URL.',
        );
      }
    },
    async afterDelete({ rc, rows }) {
      // NetBox 3.7: a data source's jobs go with it (JobsMixin)
      const ids = rows.map((r) => Number(r.id));
      await sql`delete from core_job where object_type = 'core.datasource' and object_id = any(${ids}::bigint[])`.execute(
        rc.q,
      );
    },
  },
  ui: {
    columns: ['name', 'type', 'status', 'enabled', 'description', 'file_count'],
    groups: [
      { title: 'Source', fields: ['name', 'type', 'source_url', 'description', 'ignore_rules'] },
      { title: 'Sync', fields: ['enabled'] },
      { title: 'Backend Parameters', fields: ['parameters'] },
    ],
    related: [{ model: 'core.datafile', param: 'source_id' }],
  },
  // NetBox 3.7 NestedDataSourceSerializer
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
