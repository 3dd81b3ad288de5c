-- NetBox 4.1-4.3 device component and module type fields, shown in the 4.4 dialect only: a power
-- outlet's color (4.2) and status (4.3), an inventory item's status (4.2), a module type's
-- airflow (4.1).
alter table dcim_poweroutlet add column color varchar(6) not null default '';
alter table dcim_poweroutlet add column status varchar(50) not null default 'enabled';
alter table dcim_inventoryitem add column status varchar(50) not null default 'active';
alter table dcim_moduletype add column airflow varchar(50) not null default '';
