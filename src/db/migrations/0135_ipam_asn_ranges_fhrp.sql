-- IPAM catalogue: ASN ranges (NetBox 3.5+) and FHRP groups with their interface
-- assignments (NetBox 3.4). on delete actions follow NetBox's models.

create table ipam_asnrange (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  rir_id bigint not null references ipam_rir(id) on delete restrict,
  start bigint not null check (start between 1 and 4294967295),
  "end" bigint not null check ("end" between 1 and 4294967295),
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on ipam_asnrange (rir_id);
create index on ipam_asnrange (tenant_id);

create table ipam_fhrpgroup (
  id bigserial primary key,
  name varchar(100) not null default '',
  protocol varchar(50) not null,
  group_id smallint not null check (group_id >= 0),
  auth_type varchar(50) not null default '',
  auth_key varchar(255) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

-- interface_type: dcim.interface or virtualization.vminterface (a generic link, no foreign key)
create table ipam_fhrpgroupassignment (
  id bigserial primary key,
  group_id bigint not null references ipam_fhrpgroup(id) on delete cascade,
  interface_type varchar(100) not null,
  interface_id bigint not null,
  priority smallint not null check (priority between 0 and 255),
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (interface_type, interface_id, group_id)
);
create index on ipam_fhrpgroupassignment (group_id);
