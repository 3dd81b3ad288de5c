-- NetBox 3.6: a device type may name a default platform, which a new device of the type without a
-- platform of its own takes (Device.save). Deleting the platform clears it.
alter table dcim_devicetype add column default_platform_id bigint references dcim_platform(id) on delete set null;
create index on dcim_devicetype (default_platform_id) where default_platform_id is not null;
