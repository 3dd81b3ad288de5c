-- NetBox 4.1 rack types and 4.3 module type profiles (served in the 4.4 dialect only). Racks and
-- module types do not point at them yet.

create table dcim_racktype (
  id bigserial primary key,
  manufacturer_id bigint not null references dcim_manufacturer(id) on delete restrict,
  model varchar(100) not null,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  form_factor varchar(50) not null,
  width smallint not null default 19 check (width >= 0),
  u_height smallint not null default 42 check (u_height >= 0),
  starting_unit smallint not null default 1 check (starting_unit >= 0),
  desc_units boolean not null default false,
  outer_width smallint check (outer_width >= 0),
  outer_height smallint check (outer_height >= 0),
  outer_depth smallint check (outer_depth >= 0),
  outer_unit varchar(50) not null default '',
  weight numeric(8, 2) check (weight >= 0),
  max_weight integer check (max_weight >= 0),
  weight_unit varchar(50) not null default '',
  mounting_depth smallint check (mounting_depth >= 0),
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (manufacturer_id, model),
  unique (manufacturer_id, slug)
);

create table dcim_moduletypeprofile (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  schema jsonb,
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
