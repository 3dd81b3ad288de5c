-- NetBox 4.0-4.5 comments on the organisational models that had none, and a location's facility
-- (4.0), shown in the 4.4 dialect only (FieldDef.dialect).
alter table dcim_region add column comments text not null default '';
alter table dcim_sitegroup add column comments text not null default '';
alter table dcim_location add column comments text not null default '';
alter table dcim_location add column facility varchar(50) not null default '';
alter table tenancy_tenantgroup add column comments text not null default '';
alter table tenancy_contactgroup add column comments text not null default '';
alter table wireless_wirelesslangroup add column comments text not null default '';
alter table dcim_devicerole add column comments text not null default '';
alter table dcim_platform add column comments text not null default '';
