-- `ip-addresses/?q=` is `dns_name ilike '%q%' or description ilike '%q%' or
-- text(address) ilike 'q%'`, which no index answered: at 1,000,000 addresses its total was a
-- sequential scan of the table (~410 ms). Trigram indexes answer the two contains-matches (ILIKE
-- included) and a pattern btree the address prefix; the total became a BitmapOr of the three
-- (2.3 ms). pg_trgm is a trusted extension (PostgreSQL 13+: a database owner may create it) and
-- ships with PGlite (db/client.ts loads it).
create extension if not exists pg_trgm;
create index ipam_ipaddress_dns_name_trgm on ipam_ipaddress using gin (dns_name gin_trgm_ops);
create index ipam_ipaddress_description_trgm on ipam_ipaddress using gin (description gin_trgm_ops);
create index ipam_ipaddress_address_text on ipam_ipaddress (text(address) text_pattern_ops);
