-- Virtualization (NetBox 3.4): cluster types and groups, clusters, virtual machines and their
-- interfaces. on delete actions follow NetBox 3.4's models; the engine's delete collector runs
-- the PROTECT and CASCADE rules first (with change records), the constraints below are the last word.

create table virtualization_clustertype (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table virtualization_clustergroup (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table virtualization_cluster (
  id bigserial primary key,
  name varchar(100) not null,
  type_id bigint not null references virtualization_clustertype(id) on delete restrict,
  group_id bigint references virtualization_clustergroup(id) on delete restrict,
  status varchar(50) not null default 'active',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  site_id bigint references dcim_site(id) on delete restrict,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  -- NetBox 3.4: unique (group, name) and (site, name); null group / site do not collide
  unique (group_id, name),
  unique (site_id, name)
);
create index on virtualization_cluster (name);
create index on virtualization_cluster (type_id);
create index on virtualization_cluster (tenant_id);
create index on virtualization_cluster (site_id);

create table virtualization_virtualmachine (
  id bigserial primary key,
  name varchar(64) not null,
  status varchar(50) not null default 'active',
  site_id bigint references dcim_site(id) on delete restrict,
  cluster_id bigint references virtualization_cluster(id) on delete restrict,
  device_id bigint references dcim_device(id) on delete restrict,
  role_id bigint references dcim_devicerole(id) on delete restrict,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  platform_id bigint references dcim_platform(id) on delete set null,
  primary_ip4_id bigint references ipam_ipaddress(id) on delete set null,
  primary_ip6_id bigint references ipam_ipaddress(id) on delete set null,
  vcpus numeric(6, 2) check (vcpus >= 0.01),
  memory integer check (memory >= 0),
  disk integer check (disk >= 0),
  description varchar(200) not null default '',
  comments text not null default '',
  local_context_data jsonb,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  -- natural order of name, stored (see 0090_natural_sort_columns.sql)
  _name_natural text collate "C" generated always as (natural_sort_key(name)) stored
);
-- NetBox 3.4: name unique per (cluster, tenant) case-insensitively, per cluster when there is no tenant
create unique index virtualization_virtualmachine_unique_name_cluster_tenant
  on virtualization_virtualmachine (lower(name), cluster_id, tenant_id) where tenant_id is not null;
create unique index virtualization_virtualmachine_unique_name_cluster
  on virtualization_virtualmachine (lower(name), cluster_id) where tenant_id is null;
create index virtualization_virtualmachine_natural_name on virtualization_virtualmachine (_name_natural, id);
create index on virtualization_virtualmachine (site_id);
create index on virtualization_virtualmachine (cluster_id);
create index on virtualization_virtualmachine (device_id);
create index on virtualization_virtualmachine (role_id);
create index on virtualization_virtualmachine (tenant_id);
create index on virtualization_virtualmachine (platform_id);
create index on virtualization_virtualmachine (primary_ip4_id);
create index on virtualization_virtualmachine (primary_ip6_id);

create table virtualization_vminterface (
  id bigserial primary key,
  virtual_machine_id bigint not null references virtualization_virtualmachine(id) on delete cascade,
  name varchar(64) not null,
  enabled boolean not null default true,
  parent_id bigint references virtualization_vminterface(id) on delete set null,
  bridge_id bigint references virtualization_vminterface(id) on delete set null,
  mtu integer check (mtu between 1 and 65536),
  mac_address varchar(17),
  description varchar(200) not null default '',
  mode varchar(50) not null default '',
  untagged_vlan_id bigint references ipam_vlan(id) on delete set null,
  vrf_id bigint references ipam_vrf(id) on delete set null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  _name_natural text collate "C" generated always as (natural_sort_key(name)) stored,
  unique (virtual_machine_id, name)
);
create index virtualization_vminterface_natural_name on virtualization_vminterface (virtual_machine_id, _name_natural, id);
create index on virtualization_vminterface (parent_id);
create index on virtualization_vminterface (bridge_id);
create index on virtualization_vminterface (mac_address);
create index on virtualization_vminterface (untagged_vlan_id);
create index on virtualization_vminterface (vrf_id);

create table virtualization_vminterface_tagged_vlans (
  vminterface_id bigint not null references virtualization_vminterface(id) on delete cascade,
  vlan_id bigint not null references ipam_vlan(id) on delete cascade,
  primary key (vminterface_id, vlan_id)
);
create index on virtualization_vminterface_tagged_vlans (vlan_id);

-- dcim (0010) left dcim_device.cluster_id without a foreign key; NetBox 3.4: Device.cluster is SET_NULL
alter table dcim_device add foreign key (cluster_id) references virtualization_cluster(id) on delete set null;
