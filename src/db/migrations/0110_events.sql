-- Events (spec: Events; reference 12). Webhooks are HTTP targets; event rules tie
-- object types and actions to a webhook (NetBox 3.7). The outbox (core_event, core_delivery) is
-- written in the transaction of the change that caused it, and drained by workers that claim
-- deliveries with FOR UPDATE SKIP LOCKED and a lease (core/events/README.md).

create table extras_webhook (
  id bigserial primary key,
  name varchar(150) not null unique,
  description varchar(200) not null default '',
  payload_url varchar(500) not null,
  http_method varchar(30) not null default 'POST',
  http_content_type varchar(100) not null default 'application/json',
  additional_headers text not null default '',
  body_template text not null default '',
  secret varchar(255) not null default '',
  ssl_verification boolean not null default true,
  ca_file_path varchar(4096),
  -- NetBox 3.4's trigger fields as last written; the webhook's own event rule holds the truth
  content_types text[] not null default '{}',
  type_create boolean not null default false,
  type_update boolean not null default false,
  type_delete boolean not null default false,
  enabled boolean not null default true,
  conditions jsonb,
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);

create table extras_eventrule (
  id bigserial primary key,
  name varchar(150) not null unique,
  description varchar(200) not null default '',
  content_types text[] not null default '{}',
  type_create boolean not null default false,
  type_update boolean not null default false,
  type_delete boolean not null default false,
  type_job_start boolean not null default false,
  type_job_end boolean not null default false,
  enabled boolean not null default true,
  conditions jsonb,
  action_type varchar(30) not null default 'webhook',
  action_object_type varchar(100) not null default 'extras.webhook',
  action_object_id bigint not null,
  action_parameters jsonb,
  action_data jsonb,
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
create index on extras_eventrule (action_object_type, action_object_id);
create index on extras_eventrule using gin (content_types);

-- One row per object change that an enabled rule listens to: the template context, frozen at the
-- time of the change.
create table core_event (
  id bigserial primary key,
  event varchar(10) not null,
  model varchar(100) not null,
  object_id bigint not null,
  occurred timestamptz not null default now(),
  username varchar(150) not null default '',
  request_id uuid,
  data jsonb not null,
  snapshots jsonb not null
);

-- One row per (event, rule): its delivery's state. status: queued, running, succeeded, failed,
-- skipped (the rule's conditions did not match). A running row whose lease has expired belongs to a
-- worker that died; any worker takes it over.
create table core_delivery (
  id bigserial primary key,
  event_id bigint not null references core_event(id) on delete cascade,
  rule_id bigint,
  webhook_id bigint,
  -- the object the event is about, for delivering one object's events in order
  object_key varchar(130) not null,
  status varchar(10) not null default 'queued',
  queue varchar(50) not null default 'default',
  attempts integer not null default 0,
  created timestamptz not null default now(),
  not_before timestamptz not null default now(),
  started timestamptz,
  ended timestamptz,
  lease_until timestamptz,
  worker varchar(100),
  request jsonb,
  response_status integer,
  response_body text,
  error text
);
create index core_delivery_ready on core_delivery (id) where status in ('queued', 'running');
create index on core_delivery (object_key, webhook_id, id) where status in ('queued', 'running');
create index on core_delivery (status, ended);
create index on core_delivery (event_id);

-- workers that are alive (heartbeat), for /api/core/background-workers/
create table core_worker (
  name varchar(100) primary key,
  hostname varchar(255) not null default '',
  pid integer not null default 0,
  queues text[] not null default '{default}',
  started timestamptz not null default now(),
  heartbeat timestamptz not null default now(),
  succeeded integer not null default 0,
  failed integer not null default 0
);
