-- A site's device_count, prefix_count, rack_count... were counted per page row, one
-- index-only scan over every related row (a sites page of 20 read 1,000 device and 2,000 prefix
-- index entries; 50 sites at scale 7,500). The counts an owner with many related rows shows are
-- kept here instead, by the same per-connection slots as the row counts of 0147: a statement's
-- trigger adds, per owner, what it inserted, took off what it deleted, and both for an update (a
-- device moved to another site), in the statement's own transaction, so the sum over an owner's
-- slots is exact in every snapshot. db/row-count-upkeep.ts folds the slots of connections gone
-- into slot 0 at each start. core/represent/load-related.ts countSql reads the sum for a count
-- declared `kept` (model/types.ts CountDef); test/api/core/kept-counts.test.ts checks that the
-- declarations and inv_kept_count_column list the same columns.
create table inv_kept_count (
  tbl text not null,
  col text not null,
  owner bigint not null,
  slot int not null,
  n bigint not null,
  primary key (tbl, col, owner, slot)
);

-- the foreign-key columns whose rows are counted per owner
create table inv_kept_count_column (
  tbl text not null,
  col text not null,
  primary key (tbl, col)
);
insert into inv_kept_count_column (tbl, col) values
  ('dcim_device', 'site_id'),
  ('dcim_device', 'device_type_id'),
  ('dcim_device', 'role_id'),
  ('dcim_rack', 'site_id'),
  ('ipam_prefix', 'site_id'),
  ('ipam_vlan', 'site_id'),
  ('virtualization_virtualmachine', 'site_id'),
  ('virtualization_virtualmachine', 'role_id'),
  ('circuits_circuittermination', 'site_id');

create function inv_kept_count_truncated() returns trigger language plpgsql as $$
begin
  delete from inv_kept_count where tbl = tg_table_name;
  return null;
end $$;

-- per table, one function per action with its columns written out (static SQL: PL/pgSQL keeps
-- its plans for the connection, where a generic function would plan a dynamic statement per write)
do $$
declare
  t text;
  cols text[];
  pairs text;
  upsert text := 'insert into inv_kept_count as c (tbl, col, owner, slot, n) select %L, v.col, v.owner, pg_backend_pid(), sum(v.d) from (%s) v
    where v.owner is not null group by v.col, v.owner having sum(v.d) <> 0
    on conflict (tbl, col, owner, slot) do update set n = c.n + excluded.n';
  added text := 'select x.col, x.owner, 1 as d from inserted_rows r cross join lateral (values %s) x(col, owner)';
  taken text := 'select x.col, x.owner, -1 as d from deleted_rows r cross join lateral (values %s) x(col, owner)';
begin
  for t, cols in select tbl, array_agg(col order by col) from inv_kept_count_column group by tbl loop
    pairs := (select string_agg(format('(%L, r.%I)', c, c), ', ') from unnest(cols) c);
    execute format('insert into inv_kept_count (tbl, col, owner, slot, n)
      select %L, x.col, x.owner, 0, count(*) from %I r cross join lateral (values %s) x(col, owner)
      where x.owner is not null group by x.col, x.owner', t, t, pairs);
    execute format('create function %I() returns trigger language plpgsql as $f$ begin %s; return null; end $f$',
      'inv_kept_count_inserted_' || t, format(upsert, t, format(added, pairs)));
    execute format('create function %I() returns trigger language plpgsql as $f$ begin %s; return null; end $f$',
      'inv_kept_count_deleted_' || t, format(upsert, t, format(taken, pairs)));
    execute format('create function %I() returns trigger language plpgsql as $f$ begin %s; return null; end $f$',
      'inv_kept_count_updated_' || t, format(upsert, t, format(added, pairs) || ' union all ' || format(taken, pairs)));
    execute format('create trigger inv_kept_count_inserted after insert on %I referencing new table as inserted_rows
      for each statement execute function %I()', t, 'inv_kept_count_inserted_' || t);
    execute format('create trigger inv_kept_count_deleted after delete on %I referencing old table as deleted_rows
      for each statement execute function %I()', t, 'inv_kept_count_deleted_' || t);
    execute format('create trigger inv_kept_count_updated after update on %I referencing old table as deleted_rows new table as inserted_rows
      for each statement execute function %I()', t, 'inv_kept_count_updated_' || t);
    execute format('create trigger inv_kept_count_truncated after truncate on %I
      for each statement execute function inv_kept_count_truncated()', t);
  end loop;
end $$;
