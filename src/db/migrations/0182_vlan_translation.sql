-- NetBox 4.2 VLAN translation policies and their rules (served in the 4.4 dialect only). NetBox's
-- API shows neither tags nor custom fields for them, so they store none.

create table ipam_vlantranslationpolicy (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table ipam_vlantranslationrule (
  id bigserial primary key,
  policy_id bigint not null references ipam_vlantranslationpolicy(id) on delete cascade,
  local_vid smallint not null check (local_vid >= 0),
  remote_vid smallint not null check (remote_vid >= 0),
  description varchar(200) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (policy_id, local_vid),
  unique (policy_id, remote_vid)
);
