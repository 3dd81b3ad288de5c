-- NetBox 3.7 SyncedDataMixin on export and config templates: their template_code may come from a
-- data file of a data source (apps/core/synced-data.ts; config contexts: 0144).
alter table extras_exporttemplate
  add column data_source_id bigint references core_datasource(id) on delete restrict,
  add column data_file_id bigint references core_datafile(id) on delete set null,
  add column data_path varchar(1000) not null default '',
  add column auto_sync_enabled boolean not null default false,
  add column data_synced timestamptz;
create index on extras_exporttemplate (data_source_id);
create index on extras_exporttemplate (data_file_id);

alter table extras_configtemplate
  add column data_source_id bigint references core_datasource(id) on delete restrict,
  add column data_file_id bigint references core_datafile(id) on delete set null,
  add column data_path varchar(1000) not null default '',
  add column auto_sync_enabled boolean not null default false,
  add column data_synced timestamptz;
create index on extras_configtemplate (data_source_id);
create index on extras_configtemplate (data_file_id);
