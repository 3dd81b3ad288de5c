-- Natural order (site9 < site10) from a stored column instead of an expression index. With the
-- expression index PostgreSQL still computed natural_sort_key() for every row it returned (~13 us
-- a row, a quarter of a site page's cost in bench/); a stored generated column is read, not
-- computed. NetBox keeps the same kind of column (`_name`, NaturalOrderingField).
-- Every field declared `natural` has its `_<field>_natural` column (core/query/ordering.ts).

alter table dcim_site add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
drop index dcim_site_natural_name;
create index dcim_site_natural_name on dcim_site (_name_natural, id);

alter table dcim_rack add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
drop index dcim_rack_natural_name;
create index dcim_rack_natural_name on dcim_rack (site_id, location_id, _name_natural, id);

alter table dcim_device add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
drop index dcim_device_natural_name;
create index dcim_device_natural_name on dcim_device (_name_natural, id);

alter table dcim_interface add column _name_natural text collate "C" generated always as (natural_sort_key(name)) stored;
drop index dcim_interface_natural_name;
create index dcim_interface_natural_name on dcim_interface (device_id, _name_natural, id);
