-- ASN assignments (reference 3.1 Site `asns`, 3.4 Provider `asns`): the join tables Django
-- creates for the two many-to-many fields. Deleting a site, provider or ASN removes its
-- assignments and nothing else, as Django clears m2m rows of a deleted object.

create table dcim_site_asns (
  site_id bigint not null references dcim_site(id) on delete cascade,
  asn_id bigint not null references ipam_asn(id) on delete cascade,
  primary key (site_id, asn_id)
);
-- the ASN side: site_count, the ASN `site` filters and cascades from ipam_asn
create index on dcim_site_asns (asn_id);

create table circuits_provider_asns (
  provider_id bigint not null references circuits_provider(id) on delete cascade,
  asn_id bigint not null references ipam_asn(id) on delete cascade,
  primary key (provider_id, asn_id)
);
create index on circuits_provider_asns (asn_id);
