-- Rack fields of NetBox 3.7-4.4, shown in the 4.4 dialect only (FieldDef.dialect): a rack's airflow
-- (4.1), outer height (4.3) and first unit number (3.7); a reservation's status (4.4).
alter table dcim_rack add column airflow varchar(50) not null default '';
alter table dcim_rack add column outer_height smallint check (outer_height >= 0);
alter table dcim_rack add column starting_unit smallint not null default 1 check (starting_unit >= 1);
alter table dcim_rackreservation add column status varchar(50) not null default 'active';
