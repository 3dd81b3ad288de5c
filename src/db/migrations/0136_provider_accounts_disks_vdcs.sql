-- Smaller models: provider accounts (NetBox 3.5) and the circuit's account, virtual
-- disks (3.7) with the virtual machine's disk total kept in step, virtual device contexts (3.4)
-- and the interfaces assigned to them.

create table circuits_provideraccount (
  id bigserial primary key,
  provider_id bigint not null references circuits_provider(id) on delete restrict,
  name varchar(100) not null default '',
  account varchar(100) not null,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (provider_id, account)
);
create unique index on circuits_provideraccount (provider_id, name) where name <> '';

alter table circuits_circuit add column provider_account_id bigint references circuits_provideraccount(id) on delete restrict;
create index on circuits_circuit (provider_account_id);

create table virtualization_virtualdisk (
  id bigserial primary key,
  virtual_machine_id bigint not null references virtualization_virtualmachine(id) on delete cascade,
  name varchar(64) not null,
  size integer not null check (size >= 0),
  description varchar(200) not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (virtual_machine_id, name)
);
alter table virtualization_virtualdisk add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
create index virtualization_virtualdisk_natural_name on virtualization_virtualdisk (virtual_machine_id, _name_natural, id);

-- NetBox 3.7 (virtualization/signals.py): a disk's change sets its machine's disk to the total of
-- its disks (null when it has none), without a change record of the machine, as NetBox's update().
create or replace function virtualization_virtualdisk_total() returns trigger
language plpgsql as $$
declare
  vm bigint;
begin
  for vm in select distinct x from unnest(array[
    case when tg_op <> 'INSERT' then old.virtual_machine_id end,
    case when tg_op <> 'DELETE' then new.virtual_machine_id end]) as x where x is not null
  loop
    update virtualization_virtualmachine set disk = (select sum(size) from virtualization_virtualdisk where virtual_machine_id = vm)
      where id = vm;
  end loop;
  return null;
end $$;
create trigger virtualization_virtualdisk_total after insert or update or delete on virtualization_virtualdisk
  for each row execute function virtualization_virtualdisk_total();

create table dcim_virtualdevicecontext (
  id bigserial primary key,
  device_id bigint not null references dcim_device(id) on delete cascade,
  name varchar(64) not null,
  status varchar(50) not null,
  identifier smallint check (identifier >= 0),
  primary_ip4_id bigint references ipam_ipaddress(id) on delete set null,
  primary_ip6_id bigint references ipam_ipaddress(id) on delete set null,
  tenant_id bigint references tenancy_tenant(id) on delete restrict,
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  unique (device_id, name),
  unique (device_id, identifier)
);
create index on dcim_virtualdevicecontext (tenant_id);

create table dcim_interface_vdcs (
  interface_id bigint not null references dcim_interface(id) on delete cascade,
  virtualdevicecontext_id bigint not null references dcim_virtualdevicecontext(id) on delete cascade,
  primary key (interface_id, virtualdevicecontext_id)
);
create index on dcim_interface_vdcs (virtualdevicecontext_id);
