-- An address's host was indexed twice - a GiST index (host(address)::inet, inet_ops) for
-- containment and a btree on its text for equality. The GiST insert was the dearest part of
-- creating an address (~40 us of PostgreSQL CPU of ~530 per single create, pgbench, interleaved
-- runs). One btree on the host as inet answers all three uses: equality (address= without a mask,
-- the duplicate check), ranges (an IP range's addresses) and containment, which the allocators
-- write as the range of the network's first to last host (allocators.ts) and PostgreSQL also
-- derives from `<<=` against a constant.
drop index if exists ipam_ipaddress_host_idx;
drop index if exists ipam_ipaddress_host_idx1;
create index ipam_ipaddress_host_inet on ipam_ipaddress ((host(address)::inet));
