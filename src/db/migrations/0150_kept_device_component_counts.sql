-- A device shows how many of each of its ten component kinds it has (NetBox 3.6+
-- DeviceSerializer's *_count). Counted per page row, they were ten sub-plans in every device
-- statement: 0.11-0.15 ms of a device detail's 0.5 ms in PostgreSQL, ten index probes per device
-- of a page. They are kept per device as 0148 and 0149 keep a site's and a tenant's counts; a bulk
-- create of components pays one upsert per statement (its devices' rows grouped), and a component
-- with no device (none has) nothing.
--
-- A statement reads all of a device's kept counts in one sub-plan (prefetch.ts, the `kept` entry:
-- `owner = any(page ids)` over several tables), so the key leads with the owner: led by the table,
-- the planner scanned the whole table for it (0.2 ms at 1,000 devices). Every other reading names
-- the owner too, and ON CONFLICT (tbl, col, owner, slot) finds the key whatever its order.
alter table inv_kept_count drop constraint inv_kept_count_pkey, add primary key (owner, tbl, col, slot);

create temp table inv_kept_count_new (tbl text, col text) on commit drop;
insert into inv_kept_count_new (tbl, col) values
  ('dcim_consoleport', 'device_id'),
  ('dcim_consoleserverport', 'device_id'),
  ('dcim_powerport', 'device_id'),
  ('dcim_poweroutlet', 'device_id'),
  ('dcim_interface', 'device_id'),
  ('dcim_frontport', 'device_id'),
  ('dcim_rearport', 'device_id'),
  ('dcim_devicebay', 'device_id'),
  ('dcim_modulebay', 'device_id'),
  ('dcim_inventoryitem', 'device_id');
insert into inv_kept_count_column (tbl, col) select tbl, col from inv_kept_count_new;

-- the rows already there, counted once into slot 0; each table then gets its triggers (0149)
do $$
declare
  t text;
  c text;
begin
  for t, c in select tbl, col from inv_kept_count_new loop
    execute format('insert into inv_kept_count (tbl, col, owner, slot, n)
      select %L, %L, r.%I, 0, count(*) from %I r where r.%I is not null group by r.%I', t, c, c, t, c, c);
  end loop;
  for t in select distinct tbl from inv_kept_count_new loop
    perform inv_kept_count_install(t);
  end loop;
end $$;
