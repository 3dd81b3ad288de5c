-- What a circuit termination ends at (NetBox 4.2): a region, site group, site, location or
-- provider network, by content type and id. site_id and provider_network_id stay as NetBox 3.4
-- shows them, as the site the termination is in (a location's site) or its provider network
-- (apps/circuits/termination-place.ts); one of region or site group shows neither there.
alter table circuits_circuittermination add column termination_type varchar(100),
  add column termination_id bigint check (termination_id >= 0);
update circuits_circuittermination set termination_type = 'dcim.site', termination_id = site_id where site_id is not null;
update circuits_circuittermination set termination_type = 'circuits.providernetwork', termination_id = provider_network_id
  where provider_network_id is not null;
-- the site-xor-network check (0030) gives way to: not both site and network. The write path
-- requires a termination; the columns stay nullable, as a deleted region, site group or location
-- is cleared from the terminations it held (a deleted site's are refused after that, rolled back)
do $$
declare c text;
begin
  for c in select conname from pg_constraint where conrelid = 'circuits_circuittermination'::regclass and contype = 'c'
    and pg_get_constraintdef(oid) like '%provider_network_id IS NULL%' loop
    execute format('alter table circuits_circuittermination drop constraint %I', c);
  end loop;
end $$;
alter table circuits_circuittermination add constraint circuits_circuittermination_one_place check (site_id is null or provider_network_id is null);
-- NetBox 4.4: Meta.indexes (termination_type, termination_id)
create index on circuits_circuittermination (termination_type, termination_id);
