-- Journal entries: notes attached to any object through a generic relation.
create table extras_journalentry (
  id bigserial primary key,
  assigned_object_type varchar(100) not null,
  assigned_object_id bigint not null,
  created_by_id bigint references users_user(id) on delete set null,
  kind varchar(30) not null default 'info',
  comments text not null,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_journalentry (assigned_object_type, assigned_object_id);
