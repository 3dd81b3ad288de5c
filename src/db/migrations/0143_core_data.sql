-- NetBox 3.5+'s core app: data sources (here only local directories), the data files a sync copies
-- from them, and jobs (apps/core/README.md). Webhook deliveries (core_delivery, 0110_events.sql)
-- appear among the jobs through a view, so the worker writes nothing more for them.

create table core_datasource (
  id bigserial primary key,
  name varchar(100) not null unique,
  type varchar(50) not null,
  source_url varchar(200) not null,
  status varchar(50) not null default 'new',
  enabled boolean not null default true,
  description varchar(200) not null default '',
  comments text not null default '',
  parameters jsonb,
  ignore_rules text not null default '',
  last_synced timestamptz,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

-- created: when the file was first seen; last_updated: when its content last changed (NetBox 3.7)
create table core_datafile (
  id bigserial primary key,
  source_id bigint not null references core_datasource(id) on delete cascade,
  path varchar(1000) not null,
  size bigint not null check (size >= 0),
  hash varchar(64) not null,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (source_id, path)
);

-- A file's bytes, apart from its row: the list and detail views read core_datafile (select t.*)
-- and never carry the content (NetBox 3.7 defers `data` too).
create table core_datafile_data (
  file_id bigint primary key references core_datafile(id) on delete cascade,
  data bytea not null
);

-- Jobs take their ids from the deliveries' sequence, so a job and a delivery never share an id in
-- the view below (a delivery's job id is its background-task id).
create table core_job (
  id bigint primary key default nextval('core_delivery_id_seq'),
  object_type varchar(100) not null,
  object_id bigint,
  name varchar(200) not null default '',
  status varchar(30) not null default 'pending',
  created timestamptz not null default now(),
  scheduled timestamptz,
  "interval" integer check ("interval" >= 1),
  started timestamptz,
  completed timestamptz,
  user_id bigint references users_user(id) on delete set null,
  data jsonb,
  error text not null default '',
  job_id uuid not null unique
);
create index on core_job (object_type, object_id);
create index on core_job (created);

-- Every job: the recorded ones, and each webhook delivery read as one (NetBox 3.5 job shape).
-- Computed when read: nothing on the delivery path changes.
create view core_job_view as
  select j.id, j.object_type, j.object_id, j.name, j.status, j.created, j.scheduled, j."interval",
    j.started, j.completed, j.user_id, j.data, j.error, j.job_id
  from core_job j
  union all
  select d.id, 'extras.webhook'::varchar(100), d.webhook_id,
    left(concat('Webhook ', coalesce('"' || w.name || '"', '#' || d.webhook_id::text), ': ', e.event, ' ', e.model, ' #', e.object_id::text), 200)::varchar(200),
    (case d.status
      when 'queued' then case when d.attempts > 0 and d.not_before > now() then 'scheduled' else 'pending' end
      when 'running' then 'running'
      when 'failed' then 'failed'
      else 'completed' end)::varchar(30),
    d.created,
    case when d.attempts > 0 and d.status = 'queued' then d.not_before end,
    null::integer, d.started, d.ended, u.id,
    jsonb_build_object('event', e.event, 'model', e.model, 'object_id', e.object_id, 'event_rule', d.rule_id,
      'delivery', d.status, 'attempts', d.attempts, 'response_status', d.response_status),
    coalesce(d.error, ''),
    md5('core_delivery:' || d.id::text)::uuid
  from core_delivery d
  join core_event e on e.id = d.event_id
  left join extras_webhook w on w.id = d.webhook_id
  left join users_user u on u.username = e.username and e.username <> '';
