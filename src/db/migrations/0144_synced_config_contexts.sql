-- NetBox 3.7 SyncedDataMixin on config contexts: their data may come from a data file of a data
-- source (apps/core/synced-data.ts). The source is protected while objects name it (NetBox:
-- PROTECT); a file that a sync removes leaves its objects with their last content (SET NULL).
alter table extras_configcontext
  add column data_source_id bigint references core_datasource(id) on delete restrict,
  add column data_file_id bigint references core_datafile(id) on delete set null,
  add column data_path varchar(1000) not null default '',
  add column auto_sync_enabled boolean not null default false,
  add column data_synced timestamptz;
create index on extras_configcontext (data_source_id);
create index on extras_configcontext (data_file_id);
