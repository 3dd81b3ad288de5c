-- Contacts (NetBox 3.4 tenancy): a tree of contact groups, contact roles, contacts, and their
-- assignments to any object through a generic relation (content_type "app.model" + object_id).

create table tenancy_contactgroup (
  id bigserial primary key,
  name varchar(100) not null,
  slug varchar(100) not null,
  parent_id bigint references tenancy_contactgroup(id) on delete cascade,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create unique index on tenancy_contactgroup (parent_id, name) where parent_id is not null;
create unique index on tenancy_contactgroup (parent_id, slug) where parent_id is not null;
create unique index on tenancy_contactgroup (name) where parent_id is null;
create unique index on tenancy_contactgroup (slug) where parent_id is null;

create table tenancy_contactrole (
  id bigserial primary key,
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table tenancy_contact (
  id bigserial primary key,
  group_id bigint references tenancy_contactgroup(id) on delete set null,
  name varchar(100) not null,
  title varchar(100) not null default '',
  phone varchar(50) not null default '',
  email varchar(254) not null default '',
  address varchar(200) not null default '',
  link varchar(200) not null default '',
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (group_id, name)
);

-- 3.4: change-logged only (no tags, no custom fields)
create table tenancy_contactassignment (
  id bigserial primary key,
  content_type varchar(100) not null,
  object_id bigint not null check (object_id >= 0),
  contact_id bigint not null references tenancy_contact(id) on delete restrict,
  role_id bigint not null references tenancy_contactrole(id) on delete restrict,
  priority varchar(50) not null default '',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (content_type, object_id, contact_id, role_id)
);
create index on tenancy_contactassignment (content_type, object_id);
create index on tenancy_contactassignment (contact_id);
create index on tenancy_contactassignment (role_id);
