-- DCIM: locations, racks, device types, devices, interfaces, cables, virtual chassis (reference 3.2).
-- on delete actions follow NetBox 3.4's models; the engine's delete collector runs the PROTECT and
-- CASCADE rules first (with change records), the constraints below are the last word.
-- Columns pointing at ipam/virtualization models (primary IPs, cluster, VLANs, VRF) carry no
-- foreign key yet: those tables come with later migrations, which add the constraints.

create table dcim_location (
  id bigserial primary key,
  name varchar(100) not null,
  slug varchar(100) not null,
  site_id bigint not null references dcim_site(id) on delete cascade,
  parent_id bigint references dcim_location(id) on delete cascade,
  status varchar(50) not null default 'active',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on dcim_location (site_id, parent_id, name) where parent_id is not null;
create unique index on dcim_location (site_id, parent_id, slug) where parent_id is not null;
create unique index on dcim_location (site_id, name) where parent_id is null;
create unique index on dcim_location (site_id, slug) where parent_id is null;
create index on dcim_location (parent_id);
create index on dcim_location (tenant_id);

create table dcim_rackrole (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  color varchar(6) not null default '9e9e9e',
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table dcim_rack (
  id bigserial primary key,
  name varchar(100) not null,
  facility_id varchar(50),
  site_id bigint not null references dcim_site(id) on delete restrict,
  location_id bigint references dcim_location(id) on delete set null,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  status varchar(50) not null default 'active',
  role_id bigint references dcim_rackrole(id) on delete restrict,
  serial varchar(50) not null default '',
  asset_tag varchar(50) unique,
  type varchar(50) not null default '',
  width smallint not null default 19,
  u_height smallint not null default 42 check (u_height between 1 and 100),
  weight numeric(8, 2),
  max_weight integer check (max_weight >= 0),
  weight_unit varchar(50) not null default '',
  desc_units boolean not null default false,
  outer_width smallint check (outer_width >= 0),
  outer_depth smallint check (outer_depth >= 0),
  outer_unit varchar(50) not null default '',
  mounting_depth smallint check (mounting_depth >= 0),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (location_id, name),
  unique (location_id, facility_id)
);
create index dcim_rack_natural_name on dcim_rack (site_id, location_id, (natural_sort_key(name) collate "C"), id);
create index on dcim_rack (location_id);
create index on dcim_rack (tenant_id);
create index on dcim_rack (role_id);

create table dcim_rackreservation (
  id bigserial primary key,
  rack_id bigint not null references dcim_rack(id) on delete cascade,
  units jsonb not null,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  user_id bigint not null references users_user(id) on delete restrict,
  description varchar(200) not null,
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on dcim_rackreservation (rack_id);
create index on dcim_rackreservation (user_id);

create table dcim_manufacturer (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table dcim_devicetype (
  id bigserial primary key,
  manufacturer_id bigint not null references dcim_manufacturer(id) on delete restrict,
  model varchar(100) not null,
  slug varchar(100) not null,
  part_number varchar(50) not null default '',
  u_height numeric(4, 1) not null default 1.0 check (u_height >= 0),
  is_full_depth boolean not null default true,
  subdevice_role varchar(50) not null default '',
  airflow varchar(50) not null default '',
  weight numeric(8, 2),
  weight_unit varchar(50) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (manufacturer_id, model),
  unique (manufacturer_id, slug)
);

create table dcim_devicerole (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  color varchar(6) not null default '9e9e9e',
  vm_role boolean not null default true,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table dcim_platform (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  manufacturer_id bigint references dcim_manufacturer(id) on delete restrict,
  napalm_driver varchar(50) not null default '',
  napalm_args jsonb,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on dcim_platform (manufacturer_id);

-- master_id gets its foreign key once dcim_device exists (the two tables point at each other)
create table dcim_virtualchassis (
  id bigserial primary key,
  name varchar(64) not null,
  domain varchar(30) not null default '',
  master_id bigint unique,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table dcim_device (
  id bigserial primary key,
  name varchar(64),
  device_type_id bigint not null references dcim_devicetype(id) on delete restrict,
  role_id bigint not null references dcim_devicerole(id) on delete restrict,
  -- NetBox 3.4 calls the role device_role, 3.6+ role: one column, the old name mirrors it
  device_role_id bigint generated always as (role_id) stored,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  platform_id bigint references dcim_platform(id) on delete set null,
  serial varchar(50) not null default '',
  asset_tag varchar(50) unique,
  site_id bigint not null references dcim_site(id) on delete restrict,
  location_id bigint references dcim_location(id) on delete restrict,
  rack_id bigint references dcim_rack(id) on delete restrict,
  position numeric(4, 1) check (position >= 1 and position <= 99.5),
  face varchar(50) not null default '',
  status varchar(50) not null default 'active',
  airflow varchar(50) not null default '',
  -- filled by ipam / virtualization (constraints added by their migrations)
  primary_ip4_id bigint,
  primary_ip6_id bigint,
  cluster_id bigint,
  config_template_id bigint,
  local_context_data jsonb,
  virtual_chassis_id bigint references dcim_virtualchassis(id) on delete set null,
  vc_position smallint check (vc_position between 0 and 255),
  vc_priority smallint check (vc_priority between 0 and 255),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (virtual_chassis_id, vc_position)
);
-- NetBox 3.4: name unique per (site, tenant) case-insensitively, per site when there is no tenant
create unique index dcim_device_unique_name_site_tenant on dcim_device (lower(name), site_id, tenant_id) where name is not null and tenant_id is not null;
create unique index dcim_device_unique_name_site on dcim_device (lower(name), site_id) where name is not null and tenant_id is null;
create index dcim_device_natural_name on dcim_device ((natural_sort_key(name) collate "C"), id);
create index on dcim_device (site_id);
create index on dcim_device (rack_id, position);
create index on dcim_device (location_id);
create index on dcim_device (device_type_id);
create index on dcim_device (role_id);
create index on dcim_device (tenant_id);
create index on dcim_device (platform_id);
create index on dcim_device (primary_ip4_id);
create index on dcim_device (primary_ip6_id);
create index on dcim_device (cluster_id);

alter table dcim_virtualchassis add foreign key (master_id) references dcim_device(id) on delete set null;

create table dcim_cable (
  id bigserial primary key,
  type varchar(50) not null default '',
  status varchar(50) not null default 'connected',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  label varchar(100) not null default '',
  color varchar(6) not null default '',
  length numeric(8, 2) check (length >= 0),
  length_unit varchar(50) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  -- the ends as last written ([{object_type, object_id}]), for change records;
  -- dcim_cabletermination below is what the API reads
  a_terminations jsonb not null default '[]',
  b_terminations jsonb not null default '[]',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on dcim_cable (tenant_id);

create table dcim_interface (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  name varchar(64) not null,
  label varchar(64) not null default '',
  type varchar(50) not null,
  enabled boolean not null default true,
  parent_id bigint references dcim_interface(id) on delete set null,
  bridge_id bigint references dcim_interface(id) on delete set null,
  lag_id bigint references dcim_interface(id) on delete set null,
  mtu integer check (mtu between 1 and 65536),
  mac_address varchar(17),
  speed integer check (speed >= 0),
  duplex varchar(50) not null default '',
  mgmt_only boolean not null default false,
  description varchar(200) not null default '',
  mode varchar(50) not null default '',
  poe_mode varchar(50) not null default '',
  poe_type varchar(50) not null default '',
  mark_connected boolean not null default false,
  -- kept in step with dcim_cabletermination by the trigger below
  cable_id bigint references dcim_cable(id) on delete set null,
  cable_end varchar(1) not null default '',
  -- filled by ipam (constraints added by its migration)
  untagged_vlan_id bigint,
  vrf_id bigint,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name)
);
create index dcim_interface_natural_name on dcim_interface (device_id, (natural_sort_key(name) collate "C"), id);
create index on dcim_interface (cable_id);
create index on dcim_interface (mac_address);
create index on dcim_interface (lag_id);
create index on dcim_interface (parent_id);
create index on dcim_interface (untagged_vlan_id);

create table dcim_interface_tagged_vlans (
  interface_id bigint not null references dcim_interface(id) on delete cascade,
  vlan_id bigint not null,
  primary key (interface_id, vlan_id)
);
create index on dcim_interface_tagged_vlans (vlan_id);

-- One row per cable end point; a termination belongs to one cable (NetBox 3.3+ CableTermination).
create table dcim_cabletermination (
  id bigserial primary key,
  cable_id bigint not null references dcim_cable(id) on delete cascade,
  cable_end varchar(1) not null check (cable_end in ('A', 'B')),
  termination_type varchar(100) not null,
  termination_id bigint not null,
  unique (termination_type, termination_id)
);
create index on dcim_cabletermination (cable_id);

-- The terminated object's cable / cable_end columns mirror the termination rows, so that deleting
-- a cable (or one of its terminations) frees the interface without application code.
create or replace function dcim_cabletermination_sync() returns trigger
language plpgsql as $$
declare
  r record;
  tbl text;
begin
  if tg_op = 'DELETE' then r := old; else r := new; end if;
  tbl := case r.termination_type
    when 'dcim.interface' then 'dcim_interface'
    when 'circuits.circuittermination' then 'circuits_circuittermination'
  end;
  if tbl is null then return r; end if;
  if tg_op = 'DELETE' then
    execute format('update %I set cable_id = null, cable_end = '''' where id = $1 and cable_id = $2', tbl)
      using old.termination_id, old.cable_id;
  else
    execute format('update %I set cable_id = $2, cable_end = $3 where id = $1', tbl)
      using new.termination_id, new.cable_id, new.cable_end;
  end if;
  return r;
end $$;

create trigger dcim_cabletermination_sync after insert or delete on dcim_cabletermination
  for each row execute function dcim_cabletermination_sync();
