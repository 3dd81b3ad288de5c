-- MAC address objects (NetBox 4.2, #4867): a MAC address of its own, optionally assigned to a
-- device or VM interface through a generic relation; an interface names one of its MAC objects
-- as its primary (a one-to-one link NetBox clears when the object is deleted). The interfaces'
-- mac_address column stays, kept equal to the primary's address (apps/dcim/mac-address-sync.ts):
-- NetBox 3.4 readers see it as they always did.
create table dcim_macaddress (
  id bigserial primary key,
  mac_address varchar(17) not null,
  assigned_object_type varchar(100),
  assigned_object_id bigint check (assigned_object_id >= 0),
  description varchar(200) not null default '',
  comments text not null default '',
  custom_field_data jsonb not null default '{}',
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
-- NetBox 4.4: Meta.indexes (assigned_object_type, assigned_object_id); also what an interface's
-- page reads (its mac_addresses) and what its deletion cascades through
create index on dcim_macaddress (assigned_object_type, assigned_object_id);
-- NetBox orders by mac_address, pk
create index on dcim_macaddress (mac_address, id);

alter table dcim_interface
  add column primary_mac_address_id bigint unique references dcim_macaddress(id) on delete set null;
alter table virtualization_vminterface
  add column primary_mac_address_id bigint unique references dcim_macaddress(id) on delete set null;

-- NetBox 4.2's migration: every interface's MAC address becomes a MAC object assigned to it and
-- set as its primary
insert into dcim_macaddress (mac_address, assigned_object_type, assigned_object_id)
  select mac_address, 'dcim.interface', id from dcim_interface where mac_address is not null order by id;
update dcim_interface i set primary_mac_address_id = m.id from dcim_macaddress m
  where m.assigned_object_type = 'dcim.interface' and m.assigned_object_id = i.id and i.mac_address is not null;
insert into dcim_macaddress (mac_address, assigned_object_type, assigned_object_id)
  select mac_address, 'virtualization.vminterface', id from virtualization_vminterface
  where mac_address is not null order by id;
update virtualization_vminterface i set primary_mac_address_id = m.id from dcim_macaddress m
  where m.assigned_object_type = 'virtualization.vminterface' and m.assigned_object_id = i.id
  and i.mac_address is not null;
