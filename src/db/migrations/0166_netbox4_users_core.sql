-- NetBox 4.0-4.1 fields shown in the 4.4 dialect only: a group's description (4.0), a data
-- source's sync interval in minutes (4.1).
alter table users_group add column description varchar(200) not null default '';
alter table core_datasource add column sync_interval smallint check (sync_interval > 0);
