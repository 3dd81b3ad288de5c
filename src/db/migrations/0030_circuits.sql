-- Circuits (reference 3.4): providers and their networks, circuit types, circuits, and the two
-- terminations (A and Z) of a circuit. Column names are the API's field names; fks are <field>_id.
-- PROTECT references are `on delete restrict`; the engine answers 409 before the database would.

create table circuits_provider (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  account varchar(30) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table circuits_providernetwork (
  id bigserial primary key,
  provider_id bigint not null references circuits_provider(id) on delete restrict,
  name varchar(100) not null,
  service_id varchar(100) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (provider_id, name)
);

create table circuits_circuittype (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table circuits_circuit (
  id bigserial primary key,
  cid varchar(100) not null,
  provider_id bigint not null references circuits_provider(id) on delete restrict,
  type_id bigint not null references circuits_circuittype(id) on delete restrict,
  status varchar(50) not null default 'active',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  install_date date,
  termination_date date,
  commit_rate integer check (commit_rate >= 0),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (provider_id, cid)
);
create index on circuits_circuit (type_id);
create index on circuits_circuit (tenant_id);
create index on circuits_circuit (status);

-- cable_id / cable_end are filled by dcim cabling; no fk here because cables live in a later migration
create table circuits_circuittermination (
  id bigserial primary key,
  circuit_id bigint not null references circuits_circuit(id) on delete cascade,
  term_side varchar(1) not null check (term_side in ('A', 'Z')),
  site_id bigint references dcim_site(id) on delete restrict,
  provider_network_id bigint references circuits_providernetwork(id) on delete restrict,
  port_speed integer check (port_speed >= 0),
  upstream_speed integer check (upstream_speed >= 0),
  xconnect_id varchar(50) not null default '',
  pp_info varchar(100) not null default '',
  description varchar(200) not null default '',
  mark_connected boolean not null default false,
  cable_id bigint,
  cable_end varchar(1) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (circuit_id, term_side),
  check ((site_id is null) <> (provider_network_id is null))
);
create index on circuits_circuittermination (site_id);
create index on circuits_circuittermination (provider_network_id);
create index on circuits_circuittermination (cable_id);
