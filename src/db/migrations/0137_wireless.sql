-- The wireless app (NetBox 3.4 wireless): LAN groups (a tree), wireless LANs, point-to-point
-- wireless links between two wireless interfaces; and the interfaces' radio fields.

create table wireless_wirelesslangroup (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  parent_id bigint references wireless_wirelesslangroup(id) on delete cascade,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (parent_id, name)
);

create table wireless_wirelesslan (
  id bigserial primary key,
  ssid varchar(32) not null,
  group_id bigint references wireless_wirelesslangroup(id) on delete set null,
  status varchar(50) not null default 'active',
  vlan_id bigint references ipam_vlan(id) on delete restrict,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  auth_type varchar(50) not null default '',
  auth_cipher varchar(50) not null default '',
  auth_psk varchar(64) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on wireless_wirelesslan (group_id);
create index on wireless_wirelesslan (vlan_id);

create table wireless_wirelesslink (
  id bigserial primary key,
  interface_a_id bigint not null references dcim_interface(id) on delete restrict,
  interface_b_id bigint not null references dcim_interface(id) on delete restrict,
  ssid varchar(32) not null default '',
  status varchar(50) not null default 'connected',
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  auth_type varchar(50) not null default '',
  auth_cipher varchar(50) not null default '',
  auth_psk varchar(64) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (interface_a_id, interface_b_id)
);
create index on wireless_wirelesslink (interface_b_id);

alter table dcim_interface
  add column wwn varchar(23),
  add column rf_role varchar(30) not null default '',
  add column rf_channel varchar(50) not null default '',
  add column rf_channel_frequency numeric(7, 2),
  add column rf_channel_width numeric(7, 3),
  add column tx_power smallint check (tx_power between 0 and 127),
  -- kept in step by the link's writes; a deleted link frees its interfaces
  add column wireless_link_id bigint references wireless_wirelesslink(id) on delete set null;
create index on dcim_interface (wireless_link_id);

create table dcim_interface_wireless_lans (
  interface_id bigint not null references dcim_interface(id) on delete cascade,
  wirelesslan_id bigint not null references wireless_wirelesslan(id) on delete cascade,
  primary key (interface_id, wirelesslan_id)
);
create index on dcim_interface_wireless_lans (wirelesslan_id);
