-- An unfiltered list's total was count(*) over the whole table (1,000,000 addresses:
-- 45-75 ms, again after every write). The largest tables keep their row count here instead: a
-- statement's trigger adds what it inserted, or takes off what it deleted, in its own transaction,
-- so the sum over a table's slots is exact for every snapshot. Each connection (backend process)
-- writes its own slot, so concurrent writers never wait on one another's row, and no two lock
-- the same rows in different orders. Slot 0 holds the rest: the count at this migration, and the
-- slots of connections gone, folded in at each start (db/row-count-upkeep.ts).
-- core/crud/row-counts.ts reads the sum for a list with no condition, and finds the counted
-- tables by these triggers.
create table inv_row_count (
  tbl text not null,
  slot int not null,
  n bigint not null,
  primary key (tbl, slot)
);

create function inv_count_inserted() returns trigger language plpgsql as $$
begin
  insert into inv_row_count as c (tbl, slot, n)
    select tg_table_name, pg_backend_pid(), count(*) from inserted_rows having count(*) > 0
    on conflict (tbl, slot) do update set n = c.n + excluded.n;
  return null;
end $$;

create function inv_count_deleted() returns trigger language plpgsql as $$
begin
  insert into inv_row_count as c (tbl, slot, n)
    select tg_table_name, pg_backend_pid(), -count(*) from deleted_rows having count(*) > 0
    on conflict (tbl, slot) do update set n = c.n + excluded.n;
  return null;
end $$;

create function inv_count_truncated() returns trigger language plpgsql as $$
begin
  delete from inv_row_count where tbl = tg_table_name;
  return null;
end $$;

do $$
declare
  t text;
begin
  foreach t in array array['ipam_ipaddress', 'ipam_prefix', 'ipam_vlan', 'dcim_interface', 'dcim_device',
    'dcim_cable', 'virtualization_vminterface', 'virtualization_virtualmachine', 'extras_objectchange']
  loop
    execute format('insert into inv_row_count (tbl, slot, n) select %L, 0, count(*) from %I', t, t);
    execute format('create trigger inv_count_inserted after insert on %I referencing new table as inserted_rows
      for each statement execute function inv_count_inserted()', t);
    execute format('create trigger inv_count_deleted after delete on %I referencing old table as deleted_rows
      for each statement execute function inv_count_deleted()', t);
    execute format('create trigger inv_count_truncated after truncate on %I
      for each statement execute function inv_count_truncated()', t);
  end loop;
end $$;
