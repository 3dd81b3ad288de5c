-- NetBox 4.3: a module type may have a profile (migration 0180) and attributes that the profile's
-- schema describes; NetBox 4.4: a config context may have a profile whose schema its data must
-- satisfy. Profiles in use cannot be deleted.
alter table dcim_moduletype add column profile_id bigint references dcim_moduletypeprofile(id);
alter table dcim_moduletype add column attributes jsonb;
create index on dcim_moduletype (profile_id) where profile_id is not null;
alter table extras_configcontext add column profile_id bigint references extras_configcontextprofile(id);
create index on extras_configcontext (profile_id) where profile_id is not null;
