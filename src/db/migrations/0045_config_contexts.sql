-- Config contexts (NetBox 3.4 extras.ConfigContext): JSON data merged into the rendered
-- config_context of the devices and virtual machines its assignments match. Each assignment kind
-- is a join table; a context with no rows in a kind's table matches every object for that kind.
-- Deleting an assigned object only removes the assignment (Django m2m rows cascade).

create table extras_configcontext (
  id bigserial primary key,
  name varchar(100) not null unique,
  -- NetBox 3.4: PositiveSmallIntegerField
  weight smallint not null default 1000 check (weight between 0 and 32767),
  description varchar(200) not null default '',
  is_active boolean not null default true,
  data jsonb not null,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
-- the default ordering, and the order contexts are merged in
create index extras_configcontext_weight_name on extras_configcontext (weight, name);

create table extras_configcontext_regions (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  region_id bigint not null references dcim_region(id) on delete cascade,
  primary key (configcontext_id, region_id)
);
create index on extras_configcontext_regions (region_id);

create table extras_configcontext_site_groups (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  sitegroup_id bigint not null references dcim_sitegroup(id) on delete cascade,
  primary key (configcontext_id, sitegroup_id)
);
create index on extras_configcontext_site_groups (sitegroup_id);

create table extras_configcontext_sites (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  site_id bigint not null references dcim_site(id) on delete cascade,
  primary key (configcontext_id, site_id)
);
create index on extras_configcontext_sites (site_id);

create table extras_configcontext_locations (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  location_id bigint not null references dcim_location(id) on delete cascade,
  primary key (configcontext_id, location_id)
);
create index on extras_configcontext_locations (location_id);

create table extras_configcontext_device_types (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  devicetype_id bigint not null references dcim_devicetype(id) on delete cascade,
  primary key (configcontext_id, devicetype_id)
);
create index on extras_configcontext_device_types (devicetype_id);

create table extras_configcontext_roles (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  devicerole_id bigint not null references dcim_devicerole(id) on delete cascade,
  primary key (configcontext_id, devicerole_id)
);
create index on extras_configcontext_roles (devicerole_id);

create table extras_configcontext_platforms (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  platform_id bigint not null references dcim_platform(id) on delete cascade,
  primary key (configcontext_id, platform_id)
);
create index on extras_configcontext_platforms (platform_id);

create table extras_configcontext_cluster_types (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  clustertype_id bigint not null references virtualization_clustertype(id) on delete cascade,
  primary key (configcontext_id, clustertype_id)
);
create index on extras_configcontext_cluster_types (clustertype_id);

create table extras_configcontext_cluster_groups (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  clustergroup_id bigint not null references virtualization_clustergroup(id) on delete cascade,
  primary key (configcontext_id, clustergroup_id)
);
create index on extras_configcontext_cluster_groups (clustergroup_id);

create table extras_configcontext_clusters (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  cluster_id bigint not null references virtualization_cluster(id) on delete cascade,
  primary key (configcontext_id, cluster_id)
);
create index on extras_configcontext_clusters (cluster_id);

create table extras_configcontext_tenant_groups (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  tenantgroup_id bigint not null references tenancy_tenantgroup(id) on delete cascade,
  primary key (configcontext_id, tenantgroup_id)
);
create index on extras_configcontext_tenant_groups (tenantgroup_id);

create table extras_configcontext_tenants (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  tenant_id bigint not null references tenancy_tenant(id) on delete cascade,
  primary key (configcontext_id, tenant_id)
);
create index on extras_configcontext_tenants (tenant_id);

-- the assignment tags (matched against the object's tags), not tags of the context itself
create table extras_configcontext_tags (
  configcontext_id bigint not null references extras_configcontext(id) on delete cascade,
  tag_id bigint not null references extras_tag(id) on delete cascade,
  primary key (configcontext_id, tag_id)
);
create index on extras_configcontext_tags (tag_id);
