-- The webhook outbox (core_event, core_delivery: 0110_events.sql) range-partitioned by day (UTC) of
-- the event's time, so that WEBHOOK_RETENTION_DAYS drops a day's events and deliveries together
-- instead of deleting their rows (PostgreSQL docs, 5.11 "Table Partitioning"; db/outbox-partitions.ts
-- keeps the days ahead and applies the retention). A default partition in each takes any row no
-- day covers, so an insert never fails.
--
-- A delivery carries its event's time (`occurred`) as its own partition key: an event and its
-- deliveries lie in partitions of the same day, dropped in one transaction. The foreign key from a
-- delivery to its event (on delete cascade) is gone rather than made (event_id, occurred): a key
-- referencing a partitioned table makes every detach of one of its partitions look for referencing
-- rows in the other table first, and forbids dropping the partitions without that detach; and
-- nothing needs it: the only writer of deliveries (core/events/enqueue.ts) inserts them with their
-- event in one transaction, and the only deletes are the retention's, which takes events with no
-- delivery left. A partitioned table's primary key must contain the partition key, so the keys are
-- (id, occurred); id leads them, so a lookup by id alone still probes one index per day. Ids keep
-- coming from the same sequences (core_job's ids from the deliveries', 0143_core_data.sql).

-- the jobs' view reads both tables: made again below, joining an event by its whole key
drop view core_job_view;

alter table core_event rename to core_event_unpartitioned;
alter table core_event_unpartitioned rename constraint core_event_pkey to core_event_unpartitioned_pkey;
alter sequence core_event_id_seq owned by none;
alter table core_delivery rename to core_delivery_unpartitioned;
alter table core_delivery_unpartitioned rename constraint core_delivery_pkey to core_delivery_unpartitioned_pkey;
alter table core_delivery_unpartitioned drop constraint core_delivery_event_id_fkey;
alter sequence core_delivery_id_seq owned by none;

create table core_event (
  id bigint not null default nextval('core_event_id_seq'),
  event varchar(10) not null,
  model varchar(100) not null,
  object_id bigint not null,
  occurred timestamptz not null default now(),
  username varchar(150) not null default '',
  request_id uuid,
  data jsonb not null,
  snapshots jsonb not null
) partition by range (occurred);
alter sequence core_event_id_seq owned by core_event.id;

-- occurred: the event's, which places the delivery in the partition of its event's day
create table core_delivery (
  id bigint not null default nextval('core_delivery_id_seq'),
  event_id bigint not null,
  occurred timestamptz not null,
  rule_id bigint,
  webhook_id bigint,
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
  error text,
  notify_user_ids bigint[]
) partition by range (occurred);
alter sequence core_delivery_id_seq owned by core_delivery.id;

-- the days of the events there are, and today and the next two (the service keeps adding them)
do $$
declare
  today timestamp := date_trunc('day', now() at time zone 'UTC');
  d timestamp;
  t text;
begin
  for d in select distinct date_trunc('day', occurred at time zone 'UTC') from core_event_unpartitioned
      union select today + make_interval(days => g) from generate_series(0, 2) g loop
    foreach t in array array['core_event', 'core_delivery'] loop
      execute format('create table %I partition of %I for values from (%L) to (%L)',
        t || '_p' || to_char(d, 'YYYYMMDD'), t, d::text || '+00', (d + interval '1 day')::text || '+00');
    end loop;
  end loop;
end $$;
create table core_event_default partition of core_event default;
create table core_delivery_default partition of core_delivery default;

insert into core_event (id, event, model, object_id, occurred, username, request_id, data, snapshots)
  select id, event, model, object_id, occurred, username, request_id, data, snapshots from core_event_unpartitioned;
-- a delivery without its event cannot be: the foreign key deleted them together
insert into core_delivery (id, event_id, occurred, rule_id, webhook_id, object_key, status, queue, attempts, created,
    not_before, started, ended, lease_until, worker, request, response_status, response_body, error, notify_user_ids)
  select d.id, d.event_id, e.occurred, d.rule_id, d.webhook_id, d.object_key, d.status, d.queue, d.attempts, d.created,
    d.not_before, d.started, d.ended, d.lease_until, d.worker, d.request, d.response_status, d.response_body, d.error,
    d.notify_user_ids
  from core_delivery_unpartitioned d join core_event_unpartitioned e on e.id = d.event_id;
drop table core_delivery_unpartitioned;
drop table core_event_unpartitioned;

-- the indexes after the load; the same names and predicates as before. The claim (core/events/worker.ts)
-- reads only the partial indexes of unfinished deliveries, which hold no entry in a finished day.
alter table core_event add constraint core_event_pkey primary key (id, occurred);
alter table core_delivery add constraint core_delivery_pkey primary key (id, occurred);
create index core_delivery_ready on core_delivery (id) where status in ('queued', 'running');
create index on core_delivery (object_key, webhook_id, id) where status in ('queued', 'running');
create index on core_delivery (status, ended);
create index on core_delivery (event_id);

-- as in 0143_core_data.sql, but for the join on the event's whole key (one partition per delivery)
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
  join core_event e on e.id = d.event_id and e.occurred = d.occurred
  left join extras_webhook w on w.id = d.webhook_id
  left join users_user u on u.username = e.username and e.username <> '';
