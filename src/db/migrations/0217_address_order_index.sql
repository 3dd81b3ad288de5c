-- Addresses are listed by (address, id) (ipam/ip-address.model.ts ordering, id breaking ties as
-- every list's does), but the index stopped at the address: a page sorted its rows again by id and
-- read each row's heap tuple, also for the rows an offset skips (crud/list-page.ts). With id in it,
-- a deep page's ids are a walk of the index alone, and only the page's rows are read. Among
-- 10,000,000 addresses in 20 VRFs sharing 10.0.0.0/8, the rows of one address lie far apart in the
-- heap: `ip-addresses/?limit=50&offset=10000` read 10,050 heap pages, 8.0 ms against 1.35 ms
-- (EXPLAIN ANALYZE; bench/'s internet data set, docs/scale.md). The same column leads it, so every
-- lookup the old index served, this one serves (as 0155 did for prefixes).
drop index if exists ipam_ipaddress_address_idx;
create index ipam_ipaddress_address_id_idx on ipam_ipaddress (address, id);
