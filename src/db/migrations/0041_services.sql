-- IPAM services (NetBox 3.4): an application listening on a device or a virtual machine, with the
-- addresses it listens on, and templates to create them from. Ports are integer[] (Django
-- ArrayField); exactly one parent, which the write path checks first with NetBox's message.

create table ipam_servicetemplate (
  id bigserial primary key,
  name varchar(100) not null unique,
  protocol varchar(50) not null,
  ports integer[] not null check (cardinality(ports) > 0 and 1 <= all(ports) and 65535 >= all(ports)),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table ipam_service (
  id bigserial primary key,
  -- NetBox 3.4: both CASCADE (a service goes with its device or VM)
  device_id bigint references dcim_device(id) on delete cascade,
  virtual_machine_id bigint references virtualization_virtualmachine(id) on delete cascade,
  name varchar(100) not null,
  protocol varchar(50) not null,
  ports integer[] not null check (cardinality(ports) > 0 and 1 <= all(ports) and 65535 >= all(ports)),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  check ((device_id is null) <> (virtual_machine_id is null))
);
create index on ipam_service (device_id);
create index on ipam_service (virtual_machine_id);
create index on ipam_service (protocol, ports, id);
create index on ipam_service using gin (ports);

create table ipam_service_ipaddresses (
  service_id bigint not null references ipam_service(id) on delete cascade,
  ipaddress_id bigint not null references ipam_ipaddress(id) on delete cascade,
  primary key (service_id, ipaddress_id)
);
create index on ipam_service_ipaddresses (ipaddress_id);
