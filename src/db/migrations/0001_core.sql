-- Core platform: users and auth, extras (tags, custom fields, change log, content types),
-- tenancy and the organisational part of dcim. Column names are the API's field names;
-- foreign keys are <field>_id, as NetBox's are.

-- Natural sort key: digit runs left-padded so that 'site9' < 'site10' (NetBox NaturalOrderingField).
create or replace function natural_sort_key(s text) returns text
language sql immutable parallel safe as $$
  select coalesce(string_agg(case when m[1] is not null then lpad(m[1], 12, '0') else m[2] end, '' order by n), '')
  from regexp_matches(lower(coalesce(s, '')), '(\d+)|(\D+)', 'g') with ordinality as r(m, n)
$$;

create table users_user (
  id bigserial primary key,
  username varchar(150) not null unique,
  password text not null default '',
  first_name varchar(150) not null default '',
  last_name varchar(150) not null default '',
  email varchar(254) not null default '',
  is_staff boolean not null default false,
  is_active boolean not null default true,
  is_superuser boolean not null default false,
  date_joined timestamptz not null default now(),
  last_login timestamptz
);

create table users_group (
  id bigserial primary key,
  name varchar(150) not null unique
);

create table users_user_groups (
  user_id bigint not null references users_user(id) on delete cascade,
  group_id bigint not null references users_group(id) on delete cascade,
  primary key (user_id, group_id)
);
create index on users_user_groups (group_id);

create table users_token (
  id bigserial primary key,
  user_id bigint not null references users_user(id) on delete cascade,
  created timestamptz not null default now(),
  expires timestamptz,
  last_used timestamptz,
  key varchar(40) not null unique,
  write_enabled boolean not null default true,
  description varchar(200) not null default '',
  allowed_ips text[] not null default '{}'
);
create index on users_token (user_id);

create table users_objectpermission (
  id bigserial primary key,
  name varchar(100) not null,
  description varchar(200) not null default '',
  enabled boolean not null default true,
  object_types text[] not null,
  actions text[] not null,
  constraints jsonb
);

create table users_objectpermission_users (
  objectpermission_id bigint not null references users_objectpermission(id) on delete cascade,
  user_id bigint not null references users_user(id) on delete cascade,
  primary key (objectpermission_id, user_id)
);
create index on users_objectpermission_users (user_id);

create table users_objectpermission_groups (
  objectpermission_id bigint not null references users_objectpermission(id) on delete cascade,
  group_id bigint not null references users_group(id) on delete cascade,
  primary key (objectpermission_id, group_id)
);
create index on users_objectpermission_groups (group_id);

create table users_userconfig (
  user_id bigint primary key references users_user(id) on delete cascade,
  data jsonb not null default '{}'
);

create table extras_contenttype (
  id bigserial primary key,
  app_label varchar(100) not null,
  model varchar(100) not null,
  unique (app_label, model)
);

create table extras_tag (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  color varchar(6) not null default '9e9e9e',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table extras_taggeditem (
  id bigserial primary key,
  tag_id bigint not null references extras_tag(id) on delete cascade,
  content_type varchar(100) not null,
  object_id bigint not null,
  unique (content_type, object_id, tag_id)
);
create index on extras_taggeditem (tag_id, content_type);

create table extras_customfield (
  id bigserial primary key,
  content_types text[] not null,
  type varchar(50) not null default 'text',
  object_type varchar(100),
  name varchar(50) not null unique,
  label varchar(50) not null default '',
  group_name varchar(50) not null default '',
  description varchar(200) not null default '',
  required boolean not null default false,
  search_weight integer not null default 1000,
  filter_logic varchar(50) not null default 'loose',
  ui_visibility varchar(50) not null default 'read-write',
  "default" jsonb,
  weight integer not null default 100,
  validation_minimum bigint,
  validation_maximum bigint,
  validation_regex varchar(500) not null default '',
  choices text[],
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table extras_objectchange (
  id bigserial primary key,
  time timestamptz not null default now(),
  user_id bigint references users_user(id) on delete set null,
  user_name varchar(150) not null default '',
  request_id uuid not null,
  action varchar(50) not null,
  changed_object_type varchar(100) not null,
  changed_object_id bigint not null,
  related_object_type varchar(100),
  related_object_id bigint,
  object_repr varchar(200) not null default '',
  prechange_data jsonb,
  postchange_data jsonb
);
create index on extras_objectchange (request_id, changed_object_type);
create index on extras_objectchange (changed_object_type, changed_object_id);
create index on extras_objectchange (time desc, id desc);
create index on extras_objectchange (user_id);

create table tenancy_tenantgroup (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  parent_id bigint references tenancy_tenantgroup(id) on delete cascade,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on tenancy_tenantgroup (parent_id);

create table tenancy_tenant (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  group_id bigint references tenancy_tenantgroup(id) on delete set null,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on tenancy_tenant (group_id);

create table dcim_region (
  id bigserial primary key,
  name varchar(100) not null,
  slug varchar(100) not null,
  parent_id bigint references dcim_region(id) on delete cascade,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_region (parent_id, name) where parent_id is not null;
create unique index on dcim_region (parent_id, slug) where parent_id is not null;
create unique index on dcim_region (name) where parent_id is null;
create unique index on dcim_region (slug) where parent_id is null;

create table dcim_sitegroup (
  id bigserial primary key,
  name varchar(100) not null,
  slug varchar(100) not null,
  parent_id bigint references dcim_sitegroup(id) on delete cascade,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_sitegroup (parent_id, name) where parent_id is not null;
create unique index on dcim_sitegroup (parent_id, slug) where parent_id is not null;
create unique index on dcim_sitegroup (name) where parent_id is null;
create unique index on dcim_sitegroup (slug) where parent_id is null;

create table dcim_site (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  status varchar(50) not null default 'active',
  region_id bigint references dcim_region(id) on delete set null,
  group_id bigint references dcim_sitegroup(id) on delete set null,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  facility varchar(50) not null default '',
  time_zone varchar(63),
  description varchar(200) not null default '',
  physical_address varchar(200) not null default '',
  shipping_address varchar(200) not null default '',
  latitude numeric(8, 6),
  longitude numeric(9, 6),
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index dcim_site_natural_name on dcim_site ((natural_sort_key(name) collate "C"), id);
create index on dcim_site (region_id);
create index on dcim_site (group_id);
create index on dcim_site (tenant_id);
create index on dcim_site (status);
