-- NetBox 3.7's vpn app: tunnels and their terminations, IKE/IPSec proposals, policies and
-- profiles, and L2VPNs with their terminations (3.4 had those in ipam; one table serves both paths).

create table vpn_tunnelgroup (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table vpn_ikeproposal (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  authentication_method varchar(50) not null,
  encryption_algorithm varchar(50) not null,
  authentication_algorithm varchar(50) not null default '',
  -- a Diffie-Hellman group number (DHGroupChoices)
  "group" smallint not null check ("group" >= 0),
  sa_lifetime integer check (sa_lifetime >= 0),
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table vpn_ikepolicy (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  version smallint not null default 2 check (version >= 0),
  mode varchar(50) not null default '',
  preshared_key text not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table vpn_ikepolicy_proposals (
  ikepolicy_id bigint not null references vpn_ikepolicy(id) on delete cascade,
  ikeproposal_id bigint not null references vpn_ikeproposal(id) on delete cascade,
  primary key (ikepolicy_id, ikeproposal_id)
);
create index on vpn_ikepolicy_proposals (ikeproposal_id);

create table vpn_ipsecproposal (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  encryption_algorithm varchar(50) not null default '',
  authentication_algorithm varchar(50) not null default '',
  sa_lifetime_seconds integer check (sa_lifetime_seconds >= 0),
  sa_lifetime_data integer check (sa_lifetime_data >= 0),
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table vpn_ipsecpolicy (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  pfs_group smallint check (pfs_group >= 0),
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table vpn_ipsecpolicy_proposals (
  ipsecpolicy_id bigint not null references vpn_ipsecpolicy(id) on delete cascade,
  ipsecproposal_id bigint not null references vpn_ipsecproposal(id) on delete cascade,
  primary key (ipsecpolicy_id, ipsecproposal_id)
);
create index on vpn_ipsecpolicy_proposals (ipsecproposal_id);

create table vpn_ipsecprofile (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  mode varchar(50) not null,
  ike_policy_id bigint not null references vpn_ikepolicy(id),
  ipsec_policy_id bigint not null references vpn_ipsecpolicy(id),
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on vpn_ipsecprofile (ike_policy_id);
create index on vpn_ipsecprofile (ipsec_policy_id);

create table vpn_tunnel (
  id bigserial primary key,
  name varchar(100) not null unique,
  status varchar(50) not null default 'active',
  group_id bigint references vpn_tunnelgroup(id),
  encapsulation varchar(50) not null,
  ipsec_profile_id bigint references vpn_ipsecprofile(id),
  tenant_id bigint references tenancy_tenant(id),
  tunnel_id bigint check (tunnel_id >= 0),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on vpn_tunnel (group_id);
create index on vpn_tunnel (ipsec_profile_id);
create index on vpn_tunnel (tenant_id);

create table vpn_tunneltermination (
  id bigserial primary key,
  tunnel_id bigint not null references vpn_tunnel(id) on delete cascade,
  role varchar(50) not null default 'peer',
  termination_type varchar(100) not null,
  termination_id bigint check (termination_id >= 0),
  outside_ip_id bigint references ipam_ipaddress(id),
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  -- NetBox 3.7: an object may be terminated to only one tunnel at a time
  unique (termination_type, termination_id)
);
create index on vpn_tunneltermination (tunnel_id);
create index on vpn_tunneltermination (outside_ip_id);

create table vpn_l2vpn (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  type varchar(50) not null,
  identifier bigint,
  tenant_id bigint references tenancy_tenant(id),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on vpn_l2vpn (tenant_id);

create table vpn_l2vpn_import_targets (
  l2vpn_id bigint not null references vpn_l2vpn(id) on delete cascade,
  routetarget_id bigint not null references ipam_routetarget(id) on delete cascade,
  primary key (l2vpn_id, routetarget_id)
);
create index on vpn_l2vpn_import_targets (routetarget_id);

create table vpn_l2vpn_export_targets (
  l2vpn_id bigint not null references vpn_l2vpn(id) on delete cascade,
  routetarget_id bigint not null references ipam_routetarget(id) on delete cascade,
  primary key (l2vpn_id, routetarget_id)
);
create index on vpn_l2vpn_export_targets (routetarget_id);

create table vpn_l2vpntermination (
  id bigserial primary key,
  l2vpn_id bigint not null references vpn_l2vpn(id) on delete cascade,
  assigned_object_type varchar(100) not null,
  assigned_object_id bigint not null check (assigned_object_id >= 0),
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  -- NetBox: a VLAN or an interface belongs to one L2VPN at most
  unique (assigned_object_type, assigned_object_id)
);
create index on vpn_l2vpntermination (l2vpn_id);
