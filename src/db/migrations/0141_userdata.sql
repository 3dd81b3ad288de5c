-- NetBox 3.6/3.7 user data: saved filters (applied to any list with ?filter= / ?filter_id=),
-- bookmarks, per-user dashboards, and the choice sets of selection custom fields.

create table extras_savedfilter (
  id bigserial primary key,
  content_types text[] not null default '{}',
  name varchar(100) not null unique,
  slug varchar(100) not null unique,
  description varchar(200) not null default '',
  user_id bigint references users_user(id) on delete set null,
  weight integer not null default 100 check (weight between 0 and 32767),
  enabled boolean not null default true,
  shared boolean not null default true,
  parameters jsonb not null,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_savedfilter (user_id);
create index on extras_savedfilter using gin (content_types);

-- NetBox 3.6 Bookmark: not change-logged, only a creation time; one per (object, user)
create table extras_bookmark (
  id bigserial primary key,
  object_type varchar(100) not null,
  object_id bigint not null check (object_id >= 0),
  user_id bigint not null references users_user(id) on delete cascade,
  created timestamptz not null default now(),
  unique (object_type, object_id, user_id)
);
create index on extras_bookmark (user_id);

-- NetBox 3.6 Dashboard: one per user, layout (list) and config (object) as the web UI stores them
create table extras_dashboard (
  id bigserial primary key,
  user_id bigint not null unique references users_user(id) on delete cascade,
  layout jsonb not null default '[]',
  config jsonb not null default '{}'
);

-- NetBox 3.6 CustomFieldChoiceSet: extra_choices is a list of [value, label] pairs
create table extras_customfieldchoiceset (
  id bigserial primary key,
  name varchar(100) not null unique,
  description varchar(200) not null default '',
  base_choices varchar(50) not null default '',
  extra_choices jsonb,
  order_alphabetically boolean not null default false,
  -- no predefined base lists are shipped, so the count is the extra choices' count
  choices_count integer generated always as (coalesce(jsonb_array_length(extra_choices), 0)) stored,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

-- a set in use by a field cannot be deleted (NetBox: on_delete PROTECT)
alter table extras_customfield
  add column choice_set_id bigint references extras_customfieldchoiceset(id) on delete restrict;
create index on extras_customfield (choice_set_id);
