-- The physical network: device components and their templates, module types and modules,
-- power panels and feeds, and stored cable paths. One migration so that every table the models of
-- of this migration declare exists before any of them (components point at modules, templates at module
-- types, paths at every cabled kind). on delete actions follow NetBox 3.4's models; the engine's
-- delete collector runs PROTECT and CASCADE first (with change records), the constraints are the
-- last word. Each component has its natural-order column (0090) and is unique per (device, name).

create table dcim_moduletype (
  id bigserial primary key,
  manufacturer_id bigint not null references dcim_manufacturer(id) on delete restrict,
  model varchar(100) not null,
  part_number varchar(50) not null default '',
  weight numeric(8, 2),
  weight_unit varchar(50) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (manufacturer_id, model)
);

-- Stored cable paths (NetBox's CablePath): `path` is the list of hops, each a list of
-- "app.model:id" nodes (origin, cable, far ends, ...); `_nodes` flattens them for the
-- "which paths pass through X" lookups made when a cable or port changes.
create table dcim_cablepath (
  id bigserial primary key,
  path jsonb not null default '[]',
  is_active boolean not null default false,
  is_complete boolean not null default false,
  is_split boolean not null default false,
  _nodes text[] not null default '{}'
);
create index dcim_cablepath_nodes on dcim_cablepath using gin (_nodes);

create table dcim_inventoryitemrole (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  color varchar(6) not null default '9e9e9e',
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table dcim_powerpanel (
  id bigserial primary key,
  site_id bigint not null references dcim_site(id) on delete restrict,
  location_id bigint references dcim_location(id) on delete restrict,
  name varchar(100) not null,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (site_id, name)
);
create index on dcim_powerpanel (location_id);

-- Component templates (NetBox ComponentTemplateModel): on a device type, or (the modular kinds) on a
-- module type, never both. Not custom-field models in NetBox 3.4 (no custom_field_data).
create table dcim_consoleporttemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_consoleporttemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_consoleporttemplate (module_type_id, name) where module_type_id is not null;
alter table dcim_consoleporttemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_consoleporttemplate_natural_name on dcim_consoleporttemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_consoleserverporttemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_consoleserverporttemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_consoleserverporttemplate (module_type_id, name) where module_type_id is not null;
alter table dcim_consoleserverporttemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_consoleserverporttemplate_natural_name on dcim_consoleserverporttemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_powerporttemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  maximum_draw smallint check (maximum_draw >= 1),
  allocated_draw smallint check (allocated_draw >= 1),
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_powerporttemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_powerporttemplate (module_type_id, name) where module_type_id is not null;
alter table dcim_powerporttemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_powerporttemplate_natural_name on dcim_powerporttemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_poweroutlettemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  power_port_id bigint references dcim_powerporttemplate(id) on delete set null,
  feed_leg varchar(50) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_poweroutlettemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_poweroutlettemplate (module_type_id, name) where module_type_id is not null;
alter table dcim_poweroutlettemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_poweroutlettemplate_natural_name on dcim_poweroutlettemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_interfacetemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null,
  enabled boolean not null default true,
  mgmt_only boolean not null default false,
  bridge_id bigint references dcim_interfacetemplate(id) on delete set null,
  poe_mode varchar(50) not null default '',
  poe_type varchar(50) not null default '',
  rf_role varchar(30) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_interfacetemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_interfacetemplate (module_type_id, name) where module_type_id is not null;
alter table dcim_interfacetemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_interfacetemplate_natural_name on dcim_interfacetemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_rearporttemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null,
  color varchar(6) not null default '',
  positions smallint not null default 1 check (positions between 1 and 1024),
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_rearporttemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_rearporttemplate (module_type_id, name) where module_type_id is not null;
alter table dcim_rearporttemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_rearporttemplate_natural_name on dcim_rearporttemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_frontporttemplate (
  id bigserial primary key,
  device_type_id bigint references dcim_devicetype(id) on delete cascade,
  module_type_id bigint references dcim_moduletype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null,
  color varchar(6) not null default '',
  rear_port_id bigint not null references dcim_rearporttemplate(id) on delete cascade,
  rear_port_position smallint not null default 1 check (rear_port_position between 1 and 1024),
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_type_id is null) <> (module_type_id is null))
);
create unique index on dcim_frontporttemplate (device_type_id, name) where device_type_id is not null;
create unique index on dcim_frontporttemplate (module_type_id, name) where module_type_id is not null;
create unique index on dcim_frontporttemplate (rear_port_id, rear_port_position);
alter table dcim_frontporttemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_frontporttemplate_natural_name on dcim_frontporttemplate (device_type_id, module_type_id, _name_natural, id);
create table dcim_modulebaytemplate (
  id bigserial primary key,
  device_type_id bigint not null references dcim_devicetype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  position varchar(30) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_modulebaytemplate (device_type_id, name) where device_type_id is not null;
alter table dcim_modulebaytemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_modulebaytemplate_natural_name on dcim_modulebaytemplate (device_type_id, _name_natural, id);
create table dcim_devicebaytemplate (
  id bigserial primary key,
  device_type_id bigint not null references dcim_devicetype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_devicebaytemplate (device_type_id, name) where device_type_id is not null;
alter table dcim_devicebaytemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_devicebaytemplate_natural_name on dcim_devicebaytemplate (device_type_id, _name_natural, id);
create table dcim_inventoryitemtemplate (
  id bigserial primary key,
  device_type_id bigint not null references dcim_devicetype(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  parent_id bigint references dcim_inventoryitemtemplate(id) on delete cascade,
  component_type varchar(100),
  component_id bigint,
  role_id bigint references dcim_inventoryitemrole(id) on delete restrict,
  manufacturer_id bigint references dcim_manufacturer(id) on delete restrict,
  part_id varchar(50) not null default '',
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_inventoryitemtemplate (device_type_id, parent_id, name) where parent_id is not null;
create index on dcim_inventoryitemtemplate (parent_id);
alter table dcim_inventoryitemtemplate add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_inventoryitemtemplate_natural_name on dcim_inventoryitemtemplate (device_type_id, _name_natural, id);

-- Device bays and module bays come before the components that point at them.
create table dcim_modulebay (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  position varchar(30) not null default '',
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
alter table dcim_modulebay add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_modulebay_natural_name on dcim_modulebay (device_id, _name_natural, id);

create table dcim_module (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_bay_id bigint not null unique references dcim_modulebay(id) on delete cascade,
  module_type_id bigint not null references dcim_moduletype(id) on delete restrict,
  status varchar(50) not null default 'active',
  serial varchar(50) not null default '',
  asset_tag varchar(50) unique,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on dcim_module (device_id);
create index on dcim_module (module_type_id);

create table dcim_devicebay (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  installed_device_id bigint unique references dcim_device(id) on delete set null,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
alter table dcim_devicebay add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_devicebay_natural_name on dcim_devicebay (device_id, _name_natural, id);

-- Device components (NetBox ComponentModel); the modular kinds may belong to an installed module.
create table dcim_consoleport (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_id bigint references dcim_module(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  speed integer check (speed >= 0),
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  _path_id bigint references dcim_cablepath(id) on delete set null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index on dcim_consoleport (module_id);
create index on dcim_consoleport (cable_id);
create index on dcim_consoleport (_path_id);
alter table dcim_consoleport add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_consoleport_natural_name on dcim_consoleport (device_id, _name_natural, id);
create table dcim_consoleserverport (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_id bigint references dcim_module(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  speed integer check (speed >= 0),
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  _path_id bigint references dcim_cablepath(id) on delete set null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index on dcim_consoleserverport (module_id);
create index on dcim_consoleserverport (cable_id);
create index on dcim_consoleserverport (_path_id);
alter table dcim_consoleserverport add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_consoleserverport_natural_name on dcim_consoleserverport (device_id, _name_natural, id);
create table dcim_powerport (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_id bigint references dcim_module(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  maximum_draw smallint check (maximum_draw >= 1),
  allocated_draw smallint check (allocated_draw >= 1),
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  _path_id bigint references dcim_cablepath(id) on delete set null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index on dcim_powerport (module_id);
create index on dcim_powerport (cable_id);
create index on dcim_powerport (_path_id);
alter table dcim_powerport add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_powerport_natural_name on dcim_powerport (device_id, _name_natural, id);
create table dcim_poweroutlet (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_id bigint references dcim_module(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null default '',
  power_port_id bigint references dcim_powerport(id) on delete set null,
  feed_leg varchar(50) not null default '',
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  _path_id bigint references dcim_cablepath(id) on delete set null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index on dcim_poweroutlet (module_id);
create index on dcim_poweroutlet (cable_id);
create index on dcim_poweroutlet (_path_id);
create index on dcim_poweroutlet (power_port_id);
alter table dcim_poweroutlet add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_poweroutlet_natural_name on dcim_poweroutlet (device_id, _name_natural, id);
create table dcim_rearport (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_id bigint references dcim_module(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null,
  color varchar(6) not null default '',
  positions smallint not null default 1 check (positions between 1 and 1024),
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index on dcim_rearport (module_id);
create index on dcim_rearport (cable_id);
alter table dcim_rearport add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_rearport_natural_name on dcim_rearport (device_id, _name_natural, id);
create table dcim_frontport (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  module_id bigint references dcim_module(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null,
  color varchar(6) not null default '',
  rear_port_id bigint not null references dcim_rearport(id) on delete cascade,
  rear_port_position smallint not null default 1 check (rear_port_position between 1 and 1024),
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index on dcim_frontport (module_id);
create index on dcim_frontport (cable_id);
create unique index on dcim_frontport (rear_port_id, rear_port_position);
alter table dcim_frontport add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_frontport_natural_name on dcim_frontport (device_id, _name_natural, id);

create table dcim_inventoryitem (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  parent_id bigint references dcim_inventoryitem(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  component_type varchar(100),
  component_id bigint,
  role_id bigint references dcim_inventoryitemrole(id) on delete restrict,
  manufacturer_id bigint references dcim_manufacturer(id) on delete restrict,
  part_id varchar(50) not null default '',
  serial varchar(50) not null default '',
  asset_tag varchar(50) unique,
  discovered boolean not null default false,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_inventoryitem (device_id, parent_id, name) where parent_id is not null;
create index on dcim_inventoryitem (parent_id);
create index on dcim_inventoryitem (component_type, component_id);
create index on dcim_inventoryitem (role_id);
create index on dcim_inventoryitem (manufacturer_id);
alter table dcim_inventoryitem add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index dcim_inventoryitem_natural_name on dcim_inventoryitem (device_id, _name_natural, id);

create table dcim_powerfeed (
  id bigserial primary key,
  power_panel_id bigint not null references dcim_powerpanel(id) on delete restrict,
  rack_id bigint references dcim_rack(id) on delete restrict,
  name varchar(100) not null,
  status varchar(50) not null default 'active',
  type varchar(50) not null default 'primary',
  supply varchar(50) not null default 'ac',
  phase varchar(50) not null default 'single-phase',
  voltage smallint not null default 120,
  amperage smallint not null default 20 check (amperage >= 1),
  max_utilization smallint not null default 80 check (max_utilization between 1 and 100),
  available_power integer not null default 0,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  description varchar(200) not null default '',
  comments text not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by its trigger
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  _path_id bigint references dcim_cablepath(id) on delete set null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (power_panel_id, name)
);
create index on dcim_powerfeed (rack_id);
create index on dcim_powerfeed (tenant_id);
create index on dcim_powerfeed (cable_id);
create index on dcim_powerfeed (_path_id);

-- Interfaces may belong to an installed module and end a stored path; circuit terminations too.
alter table dcim_interface add column module_id bigint references dcim_module(id) on delete cascade;
alter table dcim_interface add column _path_id bigint references dcim_cablepath(id) on delete set null;
create index on dcim_interface (module_id);
create index on dcim_interface (_path_id);
alter table circuits_circuittermination add column _path_id bigint references dcim_cablepath(id) on delete set null;
create index on circuits_circuittermination (_path_id);

-- The cable / cable_end mirror (0010) for every cabled kind: the table is the type's name with
-- "_" for ".", so a new cabled kind needs no change here.
create or replace function dcim_cabletermination_sync() returns trigger
language plpgsql as $$
declare
  r record;
  tbl text;
begin
  if tg_op = 'DELETE' then r := old; else r := new; end if;
  tbl := replace(r.termination_type, '.', '_');
  if tg_op = 'DELETE' then
    execute format('update %I set cable_id = null, cable_end = '''' where id = $1 and cable_id = $2', tbl)
      using old.termination_id, old.cable_id;
  else
    execute format('update %I set cable_id = $2, cable_end = $3 where id = $1', tbl)
      using new.termination_id, new.cable_id, new.cable_end;
  end if;
  return r;
end $$;
