-- NetBox 4.1-4.4 extras models (served in the 4.4 dialect only): config context profiles (4.4),
-- table configs (4.3), notification groups, notifications and subscriptions (4.1); and the change
-- log's `message` (4.4). Tagged objects and object types read existing tables
-- (extras_taggeditem, extras_contenttype).

create table extras_configcontextprofile (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  schema jsonb,
  comments text not null default '',
  data_source_id bigint references core_datasource(id) on delete restrict,
  data_file_id bigint references core_datafile(id) on delete set null,
  data_path varchar(1000) not null default '',
  auto_sync_enabled boolean not null default false,
  data_synced timestamptz,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_configcontextprofile (data_source_id);
create index on extras_configcontextprofile (data_file_id);

create table extras_tableconfig (
  id bigserial primary key,
  object_type varchar(100) not null,
  "table" varchar(100) not null,
  name varchar(100) not null,
  description varchar(200) not null default '',
  user_id bigint references users_user(id) on delete set null,
  weight smallint not null default 1000 check (weight >= 0),
  enabled boolean not null default true,
  shared boolean not null default true,
  columns text[] not null,
  ordering text[],
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_tableconfig (user_id);

create table extras_notificationgroup (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create table extras_notificationgroup_groups (
  notificationgroup_id bigint not null references extras_notificationgroup(id) on delete cascade,
  group_id bigint not null references users_group(id) on delete cascade,
  primary key (notificationgroup_id, group_id)
);
create index on extras_notificationgroup_groups (group_id);
create table extras_notificationgroup_users (
  notificationgroup_id bigint not null references extras_notificationgroup(id) on delete cascade,
  user_id bigint not null references users_user(id) on delete cascade,
  primary key (notificationgroup_id, user_id)
);
create index on extras_notificationgroup_users (user_id);

create table extras_notification (
  id bigserial primary key,
  created timestamptz not null default now(),
  read timestamptz,
  user_id bigint not null references users_user(id) on delete cascade,
  object_type varchar(100) not null,
  object_id bigint not null check (object_id >= 0),
  object_repr varchar(200) not null default '',
  event_type varchar(50) not null,
  unique (object_type, object_id, user_id)
);
create index on extras_notification (user_id);

create table extras_subscription (
  id bigserial primary key,
  created timestamptz not null default now(),
  user_id bigint not null references users_user(id) on delete cascade,
  object_type varchar(100) not null,
  object_id bigint not null check (object_id >= 0),
  unique (object_type, object_id, user_id)
);
create index on extras_subscription (user_id);

alter table extras_objectchange add column message varchar(200) not null default '';
