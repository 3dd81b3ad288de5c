/**
 * The address-space pages' data set (address-pages.ts) as bulk SQL, written as seed-scale-sql.ts
 * writes its rows (no change log; rows as the API would store them): a global 10.0.0.0/8
 * container holding 10,000 prefixes three levels deep (16 /12 and 256 /16 containers, 9,728 /24s
 * with a free /24 between each two), 100,000 addresses (ten or eleven per /24, two free addresses
 * between each two) and 256 IP ranges (one in each /16's first /24).
 */
/** the data set, in SQL: ids in creation order, so the /8 is prefix 1 and 10.0.0.0/16 is prefix 18 */
export const SEED = [
  `insert into ipam_prefix (prefix, status) values ('10.0.0.0/8', 'container')`,
  `insert into ipam_prefix (prefix, status)
    select ('10.' || (i * 16) || '.0.0/12')::cidr, 'container' from generate_series(0, 15) i`,
  `insert into ipam_prefix (prefix, status)
    select ('10.' || a || '.0.0/16')::cidr, 'container' from generate_series(0, 255) a`,
  `insert into ipam_prefix (prefix, status)
    select ('10.' || a || '.' || (j * 2) || '.0/24')::cidr, 'active'
    from generate_series(0, 255) a, generate_series(0, 37) j order by a, j`,
  `insert into ipam_ipaddress (address, status)
    select ('10.' || ((x % 9728) / 38) || '.' || (((x % 9728) % 38) * 2) || '.' || (1 + 3 * (x / 9728)) || '/24')::inet,
      'active' from generate_series(0, 99999) x`,
  `insert into ipam_iprange (start_address, end_address, status)
    select ('10.' || a || '.0.100/24')::inet, ('10.' || a || '.0.150/24')::inet, 'active'
    from generate_series(0, 255) a`,
];
