-- A tenant's, a VRF's and a cluster's counts (and a platform's, a tag's, a role's...) were
-- counted per page row like a site's before 0148. At a million addresses in two VRFs, a page of VRFs counted 500,000 addresses and
-- 50,000 prefixes for each (70-170 ms), and every VRF a brief or nested list showed counted its
-- prefixes; a page of 5 tenants took 75-110 ms. These columns are now kept as 0148 keeps a site's.
--
-- 0148 wrote each table's trigger functions from the columns listed then; here the same work is a
-- function, inv_kept_count_install(table), which writes them again for every counted table with
-- all of its columns (create or replace), a new table getting its triggers, and each function
-- skipping its upsert when its rows change no count.

create function inv_kept_count_install(t text) returns void language plpgsql as $install$
declare
  cols text[] := (select array_agg(col order by col) from inv_kept_count_column where tbl = t);
  pairs text := (select string_agg(format('(%L, r.%I)', c, c), ', ') from unnest(cols) c);
  -- a row that has an owner at all; an updated row whose owners all stayed as they were
  owned text := (select string_agg(format('r.%I is not null', c), ' or ') from unnest(cols) c);
  same text := (select string_agg(format('o.%I is not distinct from r.%I', c, c), ' and ') from unnest(cols) c);
  -- static SQL per table: PL/pgSQL keeps its plans for the connection (0148)
  upsert text := 'insert into inv_kept_count as c (tbl, col, owner, slot, n) select %L, v.col, v.owner, pg_backend_pid(), sum(v.d) from (%s) v
    where v.owner is not null group by v.col, v.owner having sum(v.d) <> 0
    on conflict (tbl, col, owner, slot) do update set n = c.n + excluded.n';
  added text := format('select x.col, x.owner, 1 as d from inserted_rows r cross join lateral (values %s) x(col, owner)', pairs);
  taken text := format('select x.col, x.owner, -1 as d from deleted_rows r cross join lateral (values %s) x(col, owner)', pairs);
  -- the upsert is skipped when there is nothing to count: even with no row to write, starting it
  -- (the table, its indexes, the conflict arbiter) cost a single address insert 50-100 us of
  -- PostgreSQL's time, and most rows have no tenant or VRF; most updates move no row to another owner
  body text := 'begin if exists (select from %s r where %s) then %s; end if; return null; end';
begin
  execute format('create or replace function %I() returns trigger language plpgsql as $f$ %s $f$',
    'inv_kept_count_inserted_' || t, format(body, 'inserted_rows', owned, format(upsert, t, added)));
  execute format('create or replace function %I() returns trigger language plpgsql as $f$ %s $f$',
    'inv_kept_count_deleted_' || t, format(body, 'deleted_rows', owned, format(upsert, t, taken)));
  -- an update counts when a new row has no old one with the same id and owners (ids never change
  -- here, and if one did, its row would still be counted)
  execute format('create or replace function %I() returns trigger language plpgsql as $f$ %s $f$',
    'inv_kept_count_updated_' || t, format(body, 'inserted_rows', format('not exists (select from deleted_rows o where o.id = r.id and %s)', same),
      format(upsert, t, added || ' union all ' || taken)));
  execute format('create or replace trigger inv_kept_count_inserted after insert on %I referencing new table as inserted_rows
    for each statement execute function %I()', t, 'inv_kept_count_inserted_' || t);
  execute format('create or replace trigger inv_kept_count_deleted after delete on %I referencing old table as deleted_rows
    for each statement execute function %I()', t, 'inv_kept_count_deleted_' || t);
  execute format('create or replace trigger inv_kept_count_updated after update on %I referencing old table as deleted_rows new table as inserted_rows
    for each statement execute function %I()', t, 'inv_kept_count_updated_' || t);
  execute format('create or replace trigger inv_kept_count_truncated after truncate on %I
    for each statement execute function inv_kept_count_truncated()', t);
end $install$;

create temp table inv_kept_count_new (tbl text, col text) on commit drop;
insert into inv_kept_count_new (tbl, col) values
  -- NetBox 3.4 TenantSerializer's counts
  ('circuits_circuit', 'tenant_id'),
  ('dcim_device', 'tenant_id'),
  ('ipam_ipaddress', 'tenant_id'),
  ('ipam_prefix', 'tenant_id'),
  ('dcim_rack', 'tenant_id'),
  ('dcim_site', 'tenant_id'),
  ('virtualization_virtualmachine', 'tenant_id'),
  ('ipam_vlan', 'tenant_id'),
  ('ipam_vrf', 'tenant_id'),
  ('virtualization_cluster', 'tenant_id'),
  -- VRFSerializer's
  ('ipam_ipaddress', 'vrf_id'),
  ('ipam_prefix', 'vrf_id'),
  -- ClusterSerializer's
  ('dcim_device', 'cluster_id'),
  ('virtualization_virtualmachine', 'cluster_id'),
  -- and the other owners one may give a great many rows: a platform's devices and VMs, a tag's
  -- tagged items, an IPAM role's prefixes and VLANs, a provider's and a circuit type's circuits,
  -- a rack role's racks
  ('dcim_device', 'platform_id'),
  ('virtualization_virtualmachine', 'platform_id'),
  ('extras_taggeditem', 'tag_id'),
  ('ipam_prefix', 'role_id'),
  ('ipam_vlan', 'role_id'),
  ('circuits_circuit', 'provider_id'),
  ('circuits_circuit', 'type_id'),
  ('dcim_rack', 'role_id');
insert into inv_kept_count_column (tbl, col) select tbl, col from inv_kept_count_new;

-- the rows already there, counted once into slot 0 (the columns listed before keep their slots)
do $$
declare
  t text;
  c text;
begin
  for t, c in select tbl, col from inv_kept_count_new loop
    execute format('insert into inv_kept_count (tbl, col, owner, slot, n)
      select %L, %L, r.%I, 0, count(*) from %I r where r.%I is not null group by r.%I', t, c, c, t, c, c);
  end loop;
  -- every counted table, those of 0148 too: one form of the functions, each with its skip
  for t in select distinct tbl from inv_kept_count_column loop
    perform inv_kept_count_install(t);
  end loop;
end $$;
