-- The change log, range-partitioned by `time`, one partition per calendar month (UTC) and a default
-- partition that takes any row no monthly partition covers, so an insert never fails (PostgreSQL
-- docs, 5.11 "Table Partitioning"). Retention (CHANGELOG_RETENTION) then drops whole months instead
-- of deleting their rows one by one, and a list ordered by time reads only the newest partitions
-- (db/changelog-partitions.ts keeps the months ahead and applies the retention).
--
-- A partitioned table's primary key must contain the partition key, so the key is (id, time): its
-- index also serves a lookup by id alone (id leads it). Ids keep coming from the same sequence.
-- Existing rows move into their months; the columns, indexes, foreign key and the row-count
-- triggers (0147_row_counts.sql) are those of before, and the kept row count stays as it was.

alter table extras_objectchange rename to extras_objectchange_unpartitioned;
alter table extras_objectchange_unpartitioned rename constraint extras_objectchange_pkey to extras_objectchange_unpartitioned_pkey;
alter table extras_objectchange_unpartitioned rename constraint extras_objectchange_user_id_fkey to extras_objectchange_unpartitioned_user_id_fkey;
alter sequence extras_objectchange_id_seq owned by none;

create table extras_objectchange (
  id bigint not null default nextval('extras_objectchange_id_seq'),
  time timestamptz not null default now(),
  user_id bigint references users_user(id) on delete set null,
  user_name varchar(150) not null default '',
  request_id uuid not null,
  action varchar(50) not null,
  changed_object_type varchar(100) not null,
  changed_object_id bigint not null,
  related_object_type varchar(100),
  related_object_id bigint,
  object_repr varchar(200) not null default '',
  prechange_data jsonb,
  postchange_data jsonb,
  message varchar(200) not null default ''
) partition by range (time);
alter sequence extras_objectchange_id_seq owned by extras_objectchange.id;

-- the months of the rows there are, and this month and the next two (the service keeps adding them)
do $$
declare
  first_month timestamp;
  m timestamp;
begin
  select date_trunc('month', min(time) at time zone 'UTC') into first_month from extras_objectchange_unpartitioned;
  m := least(coalesce(first_month, 'infinity'), date_trunc('month', now() at time zone 'UTC'));
  while m <= date_trunc('month', now() at time zone 'UTC') + interval '2 months' loop
    if m >= date_trunc('month', now() at time zone 'UTC') or exists (select 1 from extras_objectchange_unpartitioned
        where time >= m at time zone 'UTC' and time < (m + interval '1 month') at time zone 'UTC') then
      execute format('create table %I partition of extras_objectchange for values from (%L) to (%L)',
        'extras_objectchange_p' || to_char(m, 'YYYYMM'), m::text || '+00', (m + interval '1 month')::text || '+00');
    end if;
    m := m + interval '1 month';
  end loop;
end $$;
create table extras_objectchange_default partition of extras_objectchange default;

insert into extras_objectchange (id, time, user_id, user_name, request_id, action, changed_object_type, changed_object_id,
    related_object_type, related_object_id, object_repr, prechange_data, postchange_data, message)
  select id, time, user_id, user_name, request_id, action, changed_object_type, changed_object_id,
    related_object_type, related_object_id, object_repr, prechange_data, postchange_data, message
  from extras_objectchange_unpartitioned;
drop table extras_objectchange_unpartitioned;

-- the indexes after the load (faster than kept up row by row); the same names as before
alter table extras_objectchange add constraint extras_objectchange_pkey primary key (id, time);
create index on extras_objectchange (request_id, changed_object_type);
create index on extras_objectchange (changed_object_type, changed_object_id);
create index on extras_objectchange (time desc, id desc);
create index on extras_objectchange (user_id);

-- the kept row count (0147_row_counts.sql): created after the load, which moved rows already counted
create trigger inv_count_inserted after insert on extras_objectchange referencing new table as inserted_rows
  for each statement execute function inv_count_inserted();
create trigger inv_count_deleted after delete on extras_objectchange referencing old table as deleted_rows
  for each statement execute function inv_count_deleted();
create trigger inv_count_truncated after truncate on extras_objectchange
  for each statement execute function inv_count_truncated();
