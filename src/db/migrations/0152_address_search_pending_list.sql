-- A GIN index takes new entries into an unsorted pending list, which every search reads
-- whole until a vacuum (or a list past gin_pending_list_limit, 4 MB by default) merges it into the
-- index. Between vacuums - autovacuum comes after a fifth of the table is new, and may be off - an
-- address search (`q=`) read up to ~500 pending pages per trigram index: 4 ms per index scan with
-- 127 pages, 8 ms with 439 (118,000 creates since; a `q=10.1.` request took 66 ms of PostgreSQL
-- CPU instead of 1.1), against 0.5 ms. A 64 kB list keeps that bounded (+0.05 ms); its merges
-- cost a create ~20 us more of PostgreSQL CPU (~340 us; writing to the index directly, fastupdate
-- off, cost ~130 us more). pgbench, interleaved runs.
alter index ipam_ipaddress_dns_name_trgm set (gin_pending_list_limit = 64);
alter index ipam_ipaddress_description_trgm set (gin_pending_list_limit = 64);
