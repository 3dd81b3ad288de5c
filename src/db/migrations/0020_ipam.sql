-- IPAM (reference 3.3): addresses and prefixes are stored as inet/cidr so containment queries use
-- PostgreSQL's network operators (<<, <<=, >>, >>=) and GiST indexes. Column names are the API's
-- field names; protected references have no ON DELETE action (the engine answers 409 first).

create table ipam_rir (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  is_private boolean not null default false,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table ipam_routetarget (
  id bigserial primary key,
  name varchar(21) not null unique,
  tenant_id bigint references tenancy_tenant(id),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_routetarget (tenant_id);

create table ipam_vrf (
  id bigserial primary key,
  name varchar(100) not null,
  rd varchar(21) unique,
  tenant_id bigint references tenancy_tenant(id),
  enforce_unique boolean not null default true,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_vrf (name);
create index on ipam_vrf (tenant_id);

create table ipam_vrf_import_targets (
  vrf_id bigint not null references ipam_vrf(id) on delete cascade,
  routetarget_id bigint not null references ipam_routetarget(id) on delete cascade,
  primary key (vrf_id, routetarget_id)
);
create index on ipam_vrf_import_targets (routetarget_id);

create table ipam_vrf_export_targets (
  vrf_id bigint not null references ipam_vrf(id) on delete cascade,
  routetarget_id bigint not null references ipam_routetarget(id) on delete cascade,
  primary key (vrf_id, routetarget_id)
);
create index on ipam_vrf_export_targets (routetarget_id);

create table ipam_aggregate (
  id bigserial primary key,
  prefix cidr not null,
  rir_id bigint not null references ipam_rir(id),
  tenant_id bigint references tenancy_tenant(id),
  date_added date,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_aggregate using gist (prefix inet_ops);
create index on ipam_aggregate (rir_id);

create table ipam_asn (
  id bigserial primary key,
  asn bigint not null unique,
  rir_id bigint not null references ipam_rir(id),
  tenant_id bigint references tenancy_tenant(id),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_asn (rir_id);

create table ipam_role (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  weight integer not null default 1000,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table ipam_vlangroup (
  id bigserial primary key,
  name varchar(100) not null,
  slug varchar(100) not null,
  scope_type varchar(100),
  scope_id bigint,
  min_vid integer not null default 1,
  max_vid integer not null default 4094,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (scope_type, scope_id, name),
  unique (scope_type, scope_id, slug)
);
create index on ipam_vlangroup (scope_type, scope_id);

create table ipam_vlan (
  id bigserial primary key,
  site_id bigint references dcim_site(id),
  group_id bigint references ipam_vlangroup(id),
  vid integer not null check (vid between 1 and 4094),
  name varchar(64) not null,
  tenant_id bigint references tenancy_tenant(id),
  status varchar(50) not null default 'active',
  role_id bigint references ipam_role(id) on delete set null,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (group_id, vid),
  unique (group_id, name)
);
create index on ipam_vlan (site_id, group_id, vid);
create index on ipam_vlan (tenant_id);
create index on ipam_vlan (role_id);

create table ipam_prefix (
  id bigserial primary key,
  prefix cidr not null,
  site_id bigint references dcim_site(id),
  vrf_id bigint references ipam_vrf(id),
  tenant_id bigint references tenancy_tenant(id),
  vlan_id bigint references ipam_vlan(id),
  status varchar(50) not null default 'active',
  role_id bigint references ipam_role(id) on delete set null,
  is_pool boolean not null default false,
  mark_utilized boolean not null default false,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_prefix using gist (prefix inet_ops);
create index on ipam_prefix (vrf_id, prefix);
create index on ipam_prefix (site_id);
create index on ipam_prefix (tenant_id);
create index on ipam_prefix (vlan_id);
create index on ipam_prefix (role_id);

create table ipam_iprange (
  id bigserial primary key,
  start_address inet not null,
  end_address inet not null,
  vrf_id bigint references ipam_vrf(id),
  tenant_id bigint references tenancy_tenant(id),
  status varchar(50) not null default 'active',
  role_id bigint references ipam_role(id) on delete set null,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_iprange (vrf_id, start_address);
create index on ipam_iprange (tenant_id);
create index on ipam_iprange (role_id);

create table ipam_ipaddress (
  id bigserial primary key,
  address inet not null,
  vrf_id bigint references ipam_vrf(id),
  tenant_id bigint references tenancy_tenant(id),
  status varchar(50) not null default 'active',
  role varchar(50) not null default '',
  assigned_object_type varchar(100),
  assigned_object_id bigint,
  nat_inside_id bigint references ipam_ipaddress(id) on delete set null,
  dns_name varchar(255) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_ipaddress (address);
-- parent= and address= compare the host part whatever the mask
create index on ipam_ipaddress using gist ((host(address)::inet) inet_ops);
create index on ipam_ipaddress (host(address));
create index on ipam_ipaddress (vrf_id);
create index on ipam_ipaddress (tenant_id);
create index on ipam_ipaddress (assigned_object_type, assigned_object_id);
create index on ipam_ipaddress (nat_inside_id);

-- dcim (0010) leaves its columns pointing at IPAM without foreign keys; they get them here, with
-- NetBox 3.4's on-delete actions, for each column that exists.
do $$
declare
  fk record;
begin
  for fk in select * from (values
      ('dcim_device', 'primary_ip4_id', 'ipam_ipaddress', 'set null'),
      ('dcim_device', 'primary_ip6_id', 'ipam_ipaddress', 'set null'),
      ('dcim_interface', 'untagged_vlan_id', 'ipam_vlan', 'set null'),
      ('dcim_interface', 'vrf_id', 'ipam_vrf', 'set null'),
      ('dcim_interface_tagged_vlans', 'vlan_id', 'ipam_vlan', 'cascade')
    ) as t(tbl, col, target, action)
  loop
    if exists (select 1 from information_schema.columns where table_name = fk.tbl and column_name = fk.col) then
      execute format('alter table %I add foreign key (%I) references %I(id) on delete %s', fk.tbl, fk.col, fk.target, fk.action);
    end if;
  end loop;
end $$;
