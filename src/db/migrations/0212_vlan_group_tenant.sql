-- NetBox 4.3: a VLAN group may belong to a tenant (ipam migration 0079), which cannot be deleted
-- while it holds one.
alter table ipam_vlangroup add column tenant_id bigint references tenancy_tenant(id) on delete restrict;
create index on ipam_vlangroup (tenant_id) where tenant_id is not null;
