-- Scopes (NetBox 4.2 CachedScopeMixin) of prefixes, clusters and wireless LANs: a region, site
-- group, site or location, by content type and id. Prefixes and clusters keep site_id as the site
-- the scope is in (NetBox's _site), which NetBox 3.4 readers see as `site` (apps/dcim/scope.ts).
alter table ipam_prefix add column scope_type varchar(100), add column scope_id bigint check (scope_id >= 0);
alter table virtualization_cluster add column scope_type varchar(100), add column scope_id bigint check (scope_id >= 0);
alter table wireless_wirelesslan add column scope_type varchar(100), add column scope_id bigint check (scope_id >= 0);
-- the scope filters and a scope's deletion look objects up by it (NetBox 4.4 indexes it too)
create index on ipam_prefix (scope_type, scope_id);
create index on virtualization_cluster (scope_type, scope_id);
create index on wireless_wirelesslan (scope_type, scope_id);

-- NetBox 4.2's migration: a site becomes the scope
update ipam_prefix set scope_type = 'dcim.site', scope_id = site_id where site_id is not null;
update virtualization_cluster set scope_type = 'dcim.site', scope_id = site_id where site_id is not null;
