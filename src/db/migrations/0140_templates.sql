-- User Jinja2 templates (NetBox 3.7 extras): custom links shown on an object's page, export
-- templates rendered over a filtered list (`?export=<name>`), and config templates rendered for a
-- device or virtual machine (`render-config`), which devices, virtual machines, device roles and
-- platforms point at. The data-source fields of export and config templates (data_source,
-- data_file, data_path, auto_sync_enabled, data_synced) come with data sources.

create table extras_customlink (
  id bigserial primary key,
  -- the model identities (`dcim.site`) it is shown for; NetBox 3.7: an m2m to content types
  content_types text[] not null default '{}',
  name varchar(100) not null unique,
  enabled boolean not null default true,
  link_text text not null,
  link_url text not null,
  -- NetBox 3.7: PositiveSmallIntegerField
  weight smallint not null default 100 check (weight between 0 and 32767),
  group_name varchar(50) not null default '',
  button_class varchar(30) not null default 'outline-dark',
  new_window boolean not null default false,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_customlink using gin (content_types);

create table extras_exporttemplate (
  id bigserial primary key,
  content_types text[] not null default '{}',
  -- NetBox 3.7: not unique (3.4's unique (content_type, name) went with the m2m)
  name varchar(100) not null,
  description varchar(200) not null default '',
  template_code text not null,
  mime_type varchar(50) not null default '',
  file_extension varchar(15) not null default '',
  as_attachment boolean not null default true,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_exporttemplate using gin (content_types);
create index on extras_exporttemplate (name);

create table extras_configtemplate (
  id bigserial primary key,
  name varchar(100) not null,
  description varchar(200) not null default '',
  template_code text not null,
  environment_params jsonb default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_configtemplate (name);

-- NetBox 3.7 RenderConfigMixin and DeviceRole/Platform.config_template: PROTECT
alter table dcim_device
  add constraint dcim_device_config_template_id_fkey foreign key (config_template_id) references extras_configtemplate(id) on delete restrict;
create index on dcim_device (config_template_id);
alter table virtualization_virtualmachine
  add column config_template_id bigint references extras_configtemplate(id) on delete restrict;
create index on virtualization_virtualmachine (config_template_id);
alter table dcim_devicerole
  add column config_template_id bigint references extras_configtemplate(id) on delete restrict;
alter table dcim_platform
  add column config_template_id bigint references extras_configtemplate(id) on delete restrict;
