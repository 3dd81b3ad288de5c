-- NetBox 4.1 circuit groups and their assignments (4.2's shape: any circuit or virtual circuit as
-- the member), and 4.2 virtual circuits with their types and terminations. Served in the 4.4
-- dialect only.

create table circuits_circuitgroup (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on circuits_circuitgroup (tenant_id);

create table circuits_circuitgroupassignment (
  id bigserial primary key,
  group_id bigint not null references circuits_circuitgroup(id) on delete cascade,
  member_type varchar(100) not null,
  member_id bigint not null check (member_id >= 0),
  priority varchar(50) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (member_type, member_id, group_id)
);
create index on circuits_circuitgroupassignment (group_id);

create table circuits_virtualcircuittype (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  color varchar(6) not null default '',
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table circuits_virtualcircuit (
  id bigserial primary key,
  cid varchar(100) not null,
  provider_network_id bigint not null references circuits_providernetwork(id) on delete restrict,
  provider_account_id bigint references circuits_provideraccount(id) on delete restrict,
  type_id bigint not null references circuits_virtualcircuittype(id) on delete restrict,
  status varchar(50) not null default 'active',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (provider_network_id, cid),
  unique (provider_account_id, cid)
);
create index on circuits_virtualcircuit (type_id);
create index on circuits_virtualcircuit (tenant_id);

create table circuits_virtualcircuittermination (
  id bigserial primary key,
  virtual_circuit_id bigint not null references circuits_virtualcircuit(id) on delete cascade,
  role varchar(50) not null default 'peer',
  interface_id bigint not null unique references dcim_interface(id) on delete cascade,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on circuits_virtualcircuittermination (virtual_circuit_id);
