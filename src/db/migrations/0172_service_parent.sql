-- A service's parent (NetBox 4.3): a device, a virtual machine or an FHRP group, by content type
-- and id. device_id and virtual_machine_id stay as NetBox 3.4 shows them, set when the parent is
-- a device or a VM (apps/ipam/service-parent.ts); a service of an FHRP group has neither.
alter table ipam_service add column parent_object_type varchar(100),
  add column parent_object_id bigint check (parent_object_id >= 0);
update ipam_service set parent_object_type = 'dcim.device', parent_object_id = device_id where device_id is not null;
update ipam_service set parent_object_type = 'virtualization.virtualmachine', parent_object_id = virtual_machine_id
  where virtual_machine_id is not null;
-- the device-or-VM check (0041) gives way to: a parent, and at most one of device and VM
do $$
declare c text;
begin
  for c in select conname from pg_constraint where conrelid = 'ipam_service'::regclass and contype = 'c'
    and pg_get_constraintdef(oid) like '%virtual_machine_id IS NULL%' loop
    execute format('alter table ipam_service drop constraint %I', c);
  end loop;
end $$;
alter table ipam_service alter column parent_object_type set not null, alter column parent_object_id set not null,
  add constraint ipam_service_one_parent check (device_id is null or virtual_machine_id is null);
-- NetBox 4.3: Meta.indexes (parent_object_type, parent_object_id)
create index on ipam_service (parent_object_type, parent_object_id);
