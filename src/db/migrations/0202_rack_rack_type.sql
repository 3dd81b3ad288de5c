-- NetBox 4.1: a rack may be of a rack type (dcim_racktype, migration 0180), whose physical
-- attributes it copies when saved. A type in use cannot be deleted.
alter table dcim_rack add column rack_type_id bigint references dcim_racktype(id);
create index on dcim_rack (rack_type_id) where rack_type_id is not null;
